package io.celer.bench.ws.peer;

import java.util.Arrays;

import io.celer.examples.wsfeed.FeedText;

/**
 * The text of one feed message, as Celer's feed writes it: the client's sequence number, the send time and the due
 * time (both {@link System#nanoTime()}), each followed by a space, then padding up to the message size; ASCII written
 * into a reused array, without garbage, the header by Celer's feed's own code, so that every server's feed pays the
 * same for its text.
 */
public final class FeedMessage
{
    /** The longest header: three 19-digit longs and three spaces. */
    public static final int MAX_HEADER = FeedText.MAX_HEADER;
    private static final byte PAD = 'x';

    private FeedMessage()
    {
    }

    /**
     * Writes a message.
     *
     * @param dst      where, at least {@code max(size, MAX_HEADER)} long.
     * @param sequence the client's sequence number.
     * @param nanos    the send time.
     * @param dueNanos when the message fell due.
     * @param size     the length to pad to.
     * @return the message's length: {@code size}, or the header's if longer.
     */
    public static int write(final byte[] dst, final long sequence, final long nanos, final long dueNanos,
        final int size)
    {
        int at = FeedText.putHeader(dst, sequence, nanos, dueNanos);
        if (at < size)
        {
            Arrays.fill(dst, at, size, PAD);
            at = size;
        }
        return at;
    }
}
