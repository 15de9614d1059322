package io.celer.examples.wsfeed;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.AsciiEncoding;

/**
 * One feed message as ASCII text in a reused buffer: the client's sequence number, the send time and the due time
 * (both {@link System#nanoTime()}), each followed by a space, then {@code x} up to the message size. The due time is
 * when the client's rate made the message owed: a receiver measuring from it also counts how late the server sent,
 * which the send time alone hides. Garbage-free: the digits are written in place, two at a time.
 */
public final class FeedText
{
    /** The longest header: three 19-digit numbers and their spaces. */
    public static final int MAX_HEADER = 60;
    private static final byte PAD = 'x';

    private final byte[] text;
    private final ByteBuffer bytes;
    private final int size;

    /**
     * A message buffer.
     *
     * @param size the length messages are padded to; shorter than a header means no padding.
     */
    public FeedText(final int size)
    {
        this.size = size;
        this.text = new byte[Math.max(size, MAX_HEADER)];
        this.bytes = ByteBuffer.wrap(text);
        Arrays.fill(text, PAD);
    }

    /**
     * Writes a message over the previous one.
     *
     * @param sequence the client's sequence number, not negative.
     * @param nanos    the send time, not negative.
     * @param dueNanos when the message fell due, not negative.
     * @return the message, between position 0 and its length; valid until the next call.
     */
    public ByteBuffer write(final long sequence, final long nanos, final long dueNanos)
    {
        final int at = putHeader(text, sequence, nanos, dueNanos);
        final int length = Math.max(at, size);
        // The padding after the header is already there, but a longer header last time may have overwritten it.
        final int overwritten = Math.min(length, MAX_HEADER);
        if (at < overwritten)
        {
            Arrays.fill(text, at, overwritten, PAD);
        }
        bytes.limit(length).position(0);
        return bytes;
    }

    /**
     * Writes a message's header, the three numbers each followed by a space, at the start of an array.
     *
     * @param dst      at least {@link #MAX_HEADER} long.
     * @param sequence the client's sequence number, not negative.
     * @param nanos    the send time, not negative.
     * @param dueNanos when the message fell due, not negative.
     * @return the header's length.
     * @throws IllegalArgumentException if a number is negative.
     */
    public static int putHeader(final byte[] dst, final long sequence, final long nanos, final long dueNanos)
    {
        if ((sequence | nanos | dueNanos) < 0)
        {
            throw new IllegalArgumentException("negative: " + sequence + ", " + nanos + ", " + dueNanos);
        }
        int at = putDigits(dst, 0, sequence);
        dst[at++] = ' ';
        at = putDigits(dst, at, nanos);
        dst[at++] = ' ';
        at = putDigits(dst, at, dueNanos);
        dst[at++] = ' ';
        return at;
    }

    /**
     * Writes a number's digits from the last, two per division by 100 through Agrona's table of digit pairs. One per
     * division by 10, with a loop to count them first, took a third of a feed server's CPU at 1.7 M messages a
     * second; Agrona's own buffer writes them faster still, but needs {@code jdk.internal.misc} opened, which these
     * examples do without.
     */
    private static int putDigits(final byte[] dst, final int at, final long value)
    {
        final int end = at + AsciiEncoding.digitCount(value);
        long rest = value;
        int i = end;
        while (rest >= 10)
        {
            final long next = rest / 100;
            final int pair = (int)(rest - next * 100) << 1;
            dst[--i] = AsciiEncoding.ASCII_DIGITS[pair + 1];
            dst[--i] = AsciiEncoding.ASCII_DIGITS[pair];
            rest = next;
        }
        if (i > at) // an odd count of digits leaves the first one
        {
            dst[--i] = (byte)('0' + rest);
        }
        return end;
    }

    /**
     * The longest message this writes.
     *
     * @return bytes.
     */
    public int maxLength()
    {
        return bytes.capacity();
    }

    /**
     * The sequence number at the start of a message.
     *
     * @param text a message.
     * @return its sequence number.
     * @throws NumberFormatException if it does not start with one.
     */
    public static long sequence(final CharSequence text)
    {
        final int space = indexOfSpace(text, 0);
        return Long.parseLong(text, 0, space, 10);
    }

    /**
     * The send time after the sequence number.
     *
     * @param text a message.
     * @return its send time, nanoseconds.
     * @throws NumberFormatException if it has none.
     */
    public static long sendNanos(final CharSequence text)
    {
        final int first = indexOfSpace(text, 0) + 1;
        return Long.parseLong(text, first, indexOfSpace(text, first), 10);
    }

    /**
     * The due time after the send time.
     *
     * @param text a message.
     * @return when it fell due, nanoseconds.
     * @throws NumberFormatException if it has none.
     */
    public static long dueNanos(final CharSequence text)
    {
        final int second = indexOfSpace(text, indexOfSpace(text, 0) + 1) + 1;
        return Long.parseLong(text, second, indexOfSpace(text, second), 10);
    }

    private static int indexOfSpace(final CharSequence text, final int from)
    {
        for (int i = from; i < text.length(); i++)
        {
            if (text.charAt(i) == ' ')
            {
                return i;
            }
        }
        throw new NumberFormatException("no space after " + from + " in a feed message");
    }
}
