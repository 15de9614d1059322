package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses permessage-deflate messages (RFC 7692 section 7.2.2) as their frames arrive: each chunk is fed as
 * it comes, and {@code 00 00 ff ff} is fed after the last. Keeps the window across messages unless the peer
 * agreed to no context takeover. One reused JDK {@link Inflater}, fed and drained through ByteBuffers.
 */
public final class MessageInflater implements AutoCloseable
{
    /** What {@link #inflate} returns for corrupt data. */
    public static final int CORRUPT = -1;

    private final Inflater inflater = new Inflater(true);
    private final ByteBuffer tail = ByteBuffer.wrap(new byte[] {0, 0, (byte)0xFF, (byte)0xFF});
    private final boolean noContextTakeover;

    /**
     * A decompressor.
     *
     * @param noContextTakeover whether the peer forgets its window after each message (so may this side).
     */
    public MessageInflater(final boolean noContextTakeover)
    {
        this.noContextTakeover = noContextTakeover;
    }

    /**
     * Feeds compressed bytes; drain them with {@link #inflate} before the buffer changes.
     *
     * @param compressed the bytes between position and limit; its position moves as they are used.
     */
    public void input(final ByteBuffer compressed)
    {
        inflater.setInput(compressed);
    }

    /**
     * Feeds the tail that the sender removed; call after the message's last chunk was drained.
     */
    public void endOfMessage()
    {
        tail.clear();
        inflater.setInput(tail);
    }

    /**
     * Decompresses into a buffer.
     *
     * @param out receives bytes at its position, which moves past them; must have room.
     * @return bytes produced, 0 when the input is used up (or the stream ended), or {@link #CORRUPT}.
     */
    public int inflate(final ByteBuffer out)
    {
        try
        {
            final int produced = inflater.inflate(out);
            return produced == 0 && inflater.needsDictionary() ? CORRUPT : produced;
        }
        catch (final DataFormatException ex)
        {
            return CORRUPT;
        }
    }

    /**
     * Ends a message: resets the window when the peer does not carry it over, or when its stream ended with a
     * final block (after which nothing can follow).
     */
    public void messageDone()
    {
        if (noContextTakeover || inflater.finished())
        {
            inflater.reset();
        }
    }

    /**
     * Frees the native decompressor.
     */
    @Override
    public void close()
    {
        inflater.end();
    }
}
