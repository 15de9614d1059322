package io.celer.framing;

import java.nio.ByteBuffer;

/**
 * No framing: the handler sees all bytes read so far and consumes what it can.
 *
 * <p>Bytes the handler leaves (its position short of the limit) stay for the next read, so it can parse a
 * protocol of its own; this is the only framing where the handler's position counts.
 */
public final class RawFraming implements Framing
{
    /** One for every connection: it keeps no state, and an idle connection then holds no framing of its own. */
    public static final RawFraming INSTANCE = new RawFraming();

    @Override
    public void decode(final ByteBuffer buffer, final MessageSink sink)
    {
        if (buffer.hasRemaining())
        {
            final int limit = buffer.limit();
            sink.onMessage(buffer);
            buffer.limit(limit);
        }
    }

    @Override
    public int frameLength(final int payloadLength)
    {
        return payloadLength;
    }

    @Override
    public int maxFrameLength()
    {
        return Integer.MAX_VALUE;
    }

    /**
     * A raw framing; it keeps no state, so one may serve many connections.
     */
    public RawFraming()
    {
    }

}
