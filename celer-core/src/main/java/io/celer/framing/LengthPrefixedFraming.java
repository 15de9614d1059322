package io.celer.framing;

import java.nio.ByteBuffer;

/**
 * Messages preceded by their length as a 1, 2 or 4 byte unsigned big-endian integer, header excluded.
 */
public final class LengthPrefixedFraming implements Framing
{
    private final int headerLength;
    private final int maxLength;

    /**
     * Builds the framing.
     *
     * @param headerLength 1, 2 or 4.
     * @param maxLength    the longest payload accepted from a peer or written, in bytes.
     */
    public LengthPrefixedFraming(final int headerLength, final int maxLength)
    {
        if (headerLength != 1 && headerLength != 2 && headerLength != 4)
        {
            throw new IllegalArgumentException("length header must be 1, 2 or 4 bytes: " + headerLength);
        }
        final long largest = headerLength == 4 ? Integer.MAX_VALUE - 4 : (1L << (8 * headerLength)) - 1;
        if (maxLength < 0 || maxLength > largest)
        {
            throw new IllegalArgumentException(
                "max length " + maxLength + " does not fit a " + headerLength + " byte header");
        }
        this.headerLength = headerLength;
        this.maxLength = maxLength;
    }

    @Override
    public void decode(final ByteBuffer buffer, final MessageSink sink)
    {
        final int limit = buffer.limit();
        int start = buffer.position();
        while (limit - start >= headerLength)
        {
            final long length = readLength(buffer, start);
            if (length > maxLength)
            {
                throw new FramingException("message of " + length + " bytes exceeds the maximum of " + maxLength);
            }
            final int end = start + headerLength + (int)length;
            if (end > limit)
            {
                break;
            }
            final boolean more = MessageSink.deliver(sink, buffer, start + headerLength, end, end);
            start = end;
            if (!more)
            {
                return;
            }
        }
        buffer.position(start);
    }

    private long readLength(final ByteBuffer buffer, final int index)
    {
        switch (headerLength)
        {
            case 1:
                return buffer.get(index) & 0xFFL;
            case 2:
                return buffer.getShort(index) & 0xFFFFL;
            default:
                return buffer.getInt(index) & 0xFFFF_FFFFL;
        }
    }

    @Override
    public int frameLength(final int payloadLength)
    {
        if (payloadLength > maxLength)
        {
            throw new IllegalArgumentException(
                "message of " + payloadLength + " bytes exceeds the maximum of " + maxLength);
        }
        return headerLength + payloadLength;
    }

    @Override
    public void writeHeader(final ByteBuffer out, final int payloadLength)
    {
        switch (headerLength)
        {
            case 1:
                out.put((byte)payloadLength);
                break;
            case 2:
                out.putShort((short)payloadLength);
                break;
            default:
                out.putInt(payloadLength);
                break;
        }
    }

    @Override
    public void writeTrailer(final ByteBuffer out)
    {
    }

    @Override
    public int maxFrameLength()
    {
        return headerLength + maxLength;
    }
}
