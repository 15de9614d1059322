package io.celer.framing;

import java.nio.ByteBuffer;

/**
 * Lines ended by {@code \n}, with an optional {@code \r} before it; the handler sees a line without its end.
 *
 * <p>Keeps how far it has scanned a partial line, so bytes that trickle in are looked at once.
 */
public final class LineFraming implements Framing
{
    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private final int maxLength;
    private final boolean crlf;
    private int scanned;

    /**
     * Lines of at most {@code maxLength} bytes, written with {@code \n}.
     *
     * @param maxLength the longest line accepted, its end excluded.
     */
    public LineFraming(final int maxLength)
    {
        this(maxLength, false);
    }

    /**
     * Lines of at most {@code maxLength} bytes.
     *
     * @param maxLength the longest line accepted, its end excluded.
     * @param crlf      true to end written lines with {@code \r\n} instead of {@code \n}.
     */
    public LineFraming(final int maxLength, final boolean crlf)
    {
        if (maxLength < 1)
        {
            throw new IllegalArgumentException("max line length must be at least 1: " + maxLength);
        }
        this.maxLength = maxLength;
        this.crlf = crlf;
    }

    @Override
    public void decode(final ByteBuffer buffer, final MessageSink sink)
    {
        final int limit = buffer.limit();
        int start = buffer.position();
        for (int i = start + scanned; i < limit; i++)
        {
            if (buffer.get(i) == LF)
            {
                int end = i;
                if (end > start && buffer.get(end - 1) == CR)
                {
                    end--;
                }
                if (end - start > maxLength)
                {
                    throw tooLong(end - start);
                }
                scanned = 0;
                final boolean more = MessageSink.deliver(sink, buffer, start, end, i + 1);
                start = i + 1;
                if (!more)
                {
                    return;
                }
            }
        }
        buffer.position(start);
        scanned = limit - start;
        // One byte of slack: a line of the maximum length may still be waiting for the \n after its \r.
        if (scanned > maxLength + 1)
        {
            throw tooLong(scanned);
        }
    }

    private FramingException tooLong(final int length)
    {
        scanned = 0;
        return new FramingException("line of " + length + " bytes exceeds the maximum of " + maxLength);
    }

    @Override
    public int frameLength(final int payloadLength)
    {
        return payloadLength + (crlf ? 2 : 1);
    }

    @Override
    public void writeHeader(final ByteBuffer out, final int payloadLength)
    {
    }

    @Override
    public void writeTrailer(final ByteBuffer out)
    {
        if (crlf)
        {
            out.put(CR);
        }
        out.put(LF);
    }

    @Override
    public void reset()
    {
        scanned = 0;
    }

    @Override
    public int maxFrameLength()
    {
        return maxLength + 2;
    }
}
