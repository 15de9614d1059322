package io.celer.examples.wsfeed;

import java.nio.ByteBuffer;

/**
 * One feed message as ASCII text in a reused buffer: the client's sequence number, the send time and the due time
 * (both {@link System#nanoTime()}), each followed by a space, then {@code x} up to the message size. The due time is
 * when the client's rate made the message owed: a receiver measuring from it also counts how late the server sent,
 * which the send time alone hides. Garbage-free: the digits are written in place.
 */
public final class FeedText
{
    /** The longest header: three 19-digit numbers and their spaces. */
    public static final int MAX_HEADER = 60;
    private static final byte PAD = 'x';

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
        this.bytes = ByteBuffer.allocate(Math.max(size, MAX_HEADER));
        for (int i = 0; i < bytes.capacity(); i++)
        {
            bytes.put(i, PAD);
        }
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
        int at = putDigits(0, sequence);
        bytes.put(at++, (byte)' ');
        at += putDigits(at, nanos);
        bytes.put(at++, (byte)' ');
        at += putDigits(at, dueNanos);
        bytes.put(at++, (byte)' ');
        final int length = Math.max(at, size);
        // The padding after the header is already there, but a longer header last time may have overwritten it.
        for (int i = at; i < Math.min(length, MAX_HEADER); i++)
        {
            bytes.put(i, PAD);
        }
        bytes.limit(length).position(0);
        return bytes;
    }

    /** Writes a non-negative number's decimal digits at an index; returns how many. */
    private int putDigits(final int at, final long value)
    {
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10)
        {
            digits++;
        }
        long rest = value;
        for (int i = at + digits - 1; i >= at; i--)
        {
            bytes.put(i, (byte)('0' + rest % 10));
            rest /= 10;
        }
        return digits;
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
