package io.celer.framing;

import java.nio.ByteBuffer;

/**
 * Messages of one fixed size, back to back.
 */
public final class FixedSizeFraming implements Framing
{
    private final int size;

    /**
     * Builds the framing.
     *
     * @param size bytes per message, at least 1.
     */
    public FixedSizeFraming(final int size)
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("message size must be at least 1: " + size);
        }
        this.size = size;
    }

    @Override
    public void decode(final ByteBuffer buffer, final MessageSink sink)
    {
        final int limit = buffer.limit();
        int start = buffer.position();
        while (limit - start >= size)
        {
            final int end = start + size;
            final boolean more = MessageSink.deliver(sink, buffer, start, end, end);
            start = end;
            if (!more)
            {
                return;
            }
        }
    }

    @Override
    public int frameLength(final int payloadLength)
    {
        if (payloadLength != size)
        {
            throw new IllegalArgumentException("message of " + payloadLength + " bytes, fixed size is " + size);
        }
        return size;
    }

    @Override
    public int maxFrameLength()
    {
        return size;
    }
}
