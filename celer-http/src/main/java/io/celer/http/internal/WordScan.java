package io.celer.http.internal;

import java.nio.ByteBuffer;

/**
 * Scans a head's bytes eight at a time: the line feed that ends a line, and where a field value stops holding
 * only the chars it may. Hand-written because it is the parser's innermost loop and no library scans a
 * {@link ByteBuffer} in place without garbage; the tests check it byte for byte against the plain loops.
 *
 * <p>Each word is tested exactly, with no carry from one byte into the next, so the first byte flagged in
 * memory order is a real match whatever the buffer's byte order.
 */
public final class WordScan
{
    private static final long LOW_SEVEN = 0x7F7F7F7F7F7F7F7FL;
    private static final long LINE_FEEDS = 0x0A0A0A0A0A0A0A0AL;
    private static final long DELETES = 0x7F7F7F7F7F7F7F7FL;
    private static final long TABS = 0x0909090909090909L;
    /** Added to each byte's low seven bits: the sum reaches 0x80 exactly from 0x20, a space, on. */
    private static final long FROM_SPACE = 0x6060606060606060L;

    private WordScan()
    {
    }

    /**
     * Where the next line feed is.
     *
     * @param buffer the bytes.
     * @param from   absolute index to start at.
     * @param to     absolute index to stop before, at most the buffer's limit.
     * @return the line feed's absolute index, or -1 when none is before {@code to}.
     */
    public static int lineFeed(final ByteBuffer buffer, final int from, final int to)
    {
        int i = from;
        while (i + Long.BYTES <= to)
        {
            final long flags = zeroBytes(buffer.getLong(i) ^ LINE_FEEDS);
            if (flags != 0)
            {
                return i + first(buffer, flags);
            }
            i += Long.BYTES;
        }
        for (; i < to; i++)
        {
            if (buffer.get(i) == '\n')
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Where the first byte a field value may not hold is (RFC 9110, 5.5: a value holds visible chars, obs-text,
     * SP and HTAB, not another control char, DEL or NUL): in a well-formed field line, the CR that ends it. One
     * pass finds both the value's end and any char it may not hold.
     *
     * @param buffer the bytes.
     * @param from   absolute index of the first.
     * @param to     absolute index after the last, at most the buffer's limit.
     * @return the absolute index of the first control char but HTAB, or DEL; {@code to} when there is none.
     */
    public static int fieldEnd(final ByteBuffer buffer, final int from, final int to)
    {
        int i = from;
        while (i + Long.BYTES <= to)
        {
            final long word = buffer.getLong(i);
            // Below a space but not HTAB, or DEL: each flag is exact per byte, so the first is the answer.
            final long flags = belowSpace(word) & ~zeroBytes(word ^ TABS) | zeroBytes(word ^ DELETES);
            if (flags != 0)
            {
                return i + first(buffer, flags);
            }
            i += Long.BYTES;
        }
        return fieldEndBytes(buffer, i, to);
    }

    private static int fieldEndBytes(final ByteBuffer buffer, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final byte b = buffer.get(i);
            if (!Ascii.isFieldVchar(b) && b != ' ' && b != '\t')
            {
                return i;
            }
        }
        return to;
    }

    /** 0x80 in each byte of the word that is 0, and nothing elsewhere. */
    private static long zeroBytes(final long word)
    {
        return ~(((word & LOW_SEVEN) + LOW_SEVEN) | word | LOW_SEVEN);
    }

    /** 0x80 in each byte of the word below 0x20, and nothing elsewhere (bytes from 0x80 are not below). */
    private static long belowSpace(final long word)
    {
        return ~(((word & LOW_SEVEN) + FROM_SPACE) | word | LOW_SEVEN);
    }

    /** The offset of the first flagged byte in memory: the word was read in the buffer's byte order. */
    private static int first(final ByteBuffer buffer, final long flags)
    {
        return (buffer.order() == java.nio.ByteOrder.BIG_ENDIAN
            ? Long.numberOfLeadingZeros(flags) : Long.numberOfTrailingZeros(flags)) >>> 3;
    }
}
