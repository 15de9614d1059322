package io.celer.framing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.celer.test.Framed;

/**
 * Feeds bytes to a framing the way a connection does, in chunks, and collects the messages.
 */
final class Frames
{
    private final Framing framing;
    private final ByteBuffer buffer;
    private final List<String> messages = new ArrayList<>();

    Frames(final Framing framing, final int bufferSize)
    {
        this.framing = framing;
        this.buffer = ByteBuffer.allocate(bufferSize);
    }

    /**
     * Appends bytes as one read, decodes, compacts.
     */
    Frames read(final byte[] bytes)
    {
        buffer.put(bytes);
        buffer.flip();
        framing.decode(buffer, message ->
        {
            final byte[] copy = new byte[message.remaining()];
            message.get(copy);
            messages.add(new String(copy, StandardCharsets.ISO_8859_1));
            return true;
        });
        buffer.compact();
        return this;
    }

    Frames read(final String text)
    {
        return read(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Feeds the bytes one at a time.
     */
    Frames dribble(final byte[] bytes)
    {
        for (final byte b : bytes)
        {
            read(new byte[] {b});
        }
        return this;
    }

    List<String> messages()
    {
        return messages;
    }

    int pending()
    {
        return buffer.position();
    }

    /**
     * Frames messages with the framing's own write path.
     */
    static byte[] encode(final Framing framing, final String... messages)
    {
        return Framed.encode(framing, List.of(messages));
    }
}
