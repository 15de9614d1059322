package io.celer.bench.ws.peer;

/**
 * The text of one feed message, as Celer's feed writes it: the client's sequence number, the send time and the due
 * time (both {@link System#nanoTime()}), each followed by a space, then padding up to the message size; ASCII written
 * into a reused array, without garbage.
 */
public final class FeedMessage
{
    /** The longest header: three 19-digit longs and three spaces. */
    public static final int MAX_HEADER = 60;
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
        int at = putLong(dst, 0, sequence);
        dst[at++] = ' ';
        at = putLong(dst, at, nanos);
        dst[at++] = ' ';
        at = putLong(dst, at, dueNanos);
        dst[at++] = ' ';
        while (at < size)
        {
            dst[at++] = PAD;
        }
        return at;
    }

    private static int putLong(final byte[] dst, final int at, final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("negative: " + value);
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10)
        {
            digits++;
        }
        long rest = value;
        for (int i = at + digits - 1; i >= at; i--)
        {
            dst[i] = (byte)('0' + rest % 10);
            rest /= 10;
        }
        return at + digits;
    }
}
