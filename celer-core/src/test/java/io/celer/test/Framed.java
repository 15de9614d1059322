package io.celer.test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.celer.framing.Framing;

/**
 * Bytes as a peer sends them: messages framed with a framing's own write path.
 */
public final class Framed
{
    private Framed()
    {
    }

    /**
     * Frames ISO-8859-1 messages one after the other.
     *
     * @param framing  the framing; its write path keeps no state between messages.
     * @param messages the payloads.
     * @return the frames, back to back.
     */
    public static byte[] encode(final Framing framing, final List<String> messages)
    {
        int length = 0;
        for (final String message : messages)
        {
            length += framing.frameLength(message.length());
        }
        final ByteBuffer out = ByteBuffer.allocate(length);
        for (final String message : messages)
        {
            final byte[] payload = message.getBytes(StandardCharsets.ISO_8859_1);
            framing.writeHeader(out, payload.length);
            out.put(payload);
            framing.writeTrailer(out);
        }
        return out.array();
    }
}
