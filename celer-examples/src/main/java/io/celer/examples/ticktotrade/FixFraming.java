package io.celer.examples.ticktotrade;

import java.nio.ByteBuffer;

import io.celer.framing.Framing;
import io.celer.framing.FramingException;
import io.celer.framing.MessageSink;

/**
 * Cuts a stream of FIX-style messages: each ends with its checksum field {@code 10=ddd} and SOH.
 *
 * <p>A user-defined framing: the application writes whole messages, so the write side adds nothing.
 */
public final class FixFraming implements Framing
{
    private static final int TRAILER = 8; // SOH 1 0 = d d d SOH, the leading SOH belonging to the field before

    private final int maxLength;

    /**
     * Messages of at most {@code maxLength} bytes.
     *
     * @param maxLength the bound.
     */
    public FixFraming(final int maxLength)
    {
        this.maxLength = maxLength;
    }

    @Override
    public void decode(final ByteBuffer buffer, final MessageSink sink)
    {
        final int limit = buffer.limit();
        int start = buffer.position();
        int i = start + TRAILER - 1;
        while (i < limit)
        {
            if (buffer.get(i) == FixMessage.SOH && isTrailer(buffer, i - TRAILER + 1))
            {
                final int end = i + 1;
                final boolean more = MessageSink.deliver(sink, buffer, start, end, end);
                start = end;
                if (!more)
                {
                    return;
                }
                i = start + TRAILER - 1;
            }
            else
            {
                i++;
            }
        }
        buffer.position(start);
        if (limit - start > maxLength)
        {
            throw new FramingException("FIX message of over " + maxLength + " bytes without a checksum field");
        }
    }

    private static boolean isTrailer(final ByteBuffer buffer, final int at)
    {
        return buffer.get(at) == FixMessage.SOH && buffer.get(at + 1) == '1' && buffer.get(at + 2) == '0' &&
            buffer.get(at + 3) == '=';
    }

    @Override
    public int frameLength(final int payloadLength)
    {
        if (payloadLength > maxLength)
        {
            throw new IllegalArgumentException("FIX message of " + payloadLength + " bytes, maximum " + maxLength);
        }
        return payloadLength;
    }

    @Override
    public int maxFrameLength()
    {
        return maxLength;
    }
}
