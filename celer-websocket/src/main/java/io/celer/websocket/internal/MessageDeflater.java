package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;
import io.celer.websocket.deflate.DeflateParameters;

/**
 * Compresses messages, whole or in parts, for permessage-deflate (RFC 7692 section 7.2.1): raw DEFLATE, flushed with
 * SYNC_FLUSH so each message ends on a byte boundary, the flush's trailing {@code 00 00 ff ff} removed. Keeps its
 * window across messages unless no context takeover was agreed. One reused JDK {@link Deflater}; its
 * ByteBuffer methods allocate nothing on the heap.
 */
public final class MessageDeflater implements AutoCloseable
{
    private final Deflater deflater;
    private final boolean noContextTakeover;

    /**
     * A compressor.
     *
     * @param level             the DEFLATE level, 0 to 9 or {@link Deflater#DEFAULT_COMPRESSION}.
     * @param noContextTakeover whether to forget the window after each message.
     */
    public MessageDeflater(final int level, final boolean noContextTakeover)
    {
        this(level, noContextTakeover, 0);
    }

    /**
     * A compressor whose output a peer with a narrower window can inflate.
     *
     * @param level             the DEFLATE level, 0 to 9 or {@link Deflater#DEFAULT_COMPRESSION}.
     * @param noContextTakeover whether to forget the window after each message.
     * @param windowBits        the window agreed on, 8 to 15, or 0 when not negotiated (15).
     */
    public MessageDeflater(final int level, final boolean noContextTakeover, final int windowBits)
    {
        this.deflater = new Deflater(level, true);
        if (windowBits > 0 && windowBits < DeflateParameters.MAX_WINDOW_BITS)
        {
            // The JDK's deflater cannot narrow its 32 KiB window; Huffman coding alone refers back to nothing,
            // so a peer inflating with any window reads it, at the cost of the LZ77 part of the compression.
            deflater.setStrategy(Deflater.HUFFMAN_ONLY);
            // Applied by the next deflate call, which would then stop short of the input: apply it now.
            deflater.deflate(new byte[16], 0, 16, Deflater.NO_FLUSH);
        }
        this.noContextTakeover = noContextTakeover;
    }

    /**
     * Compresses a whole message.
     *
     * @param message the bytes between position and limit; position moves to limit on success.
     * @param out     receives the compressed bytes at its position, which moves past them.
     * @return false when they did not fit (the caller then restores the message's position and sends it
     *         uncompressed); the window is forgotten then, as the peer never sees these bytes.
     */
    public boolean deflate(final ByteBuffer message, final ByteBuffer out)
    {
        return deflate(message, out, true);
    }

    /**
     * Compresses one part of a message sent in fragments: the parts' outputs, in order, make the message's
     * compressed bytes. Each part is flushed, so that its fragment carries all of it; the last drops the tail.
     *
     * @param part the bytes between position and limit; position moves to limit on success.
     * @param out  receives the compressed bytes at its position, which moves past them; room for
     *             {@link #bound} of the part leaves no room for failure.
     * @param last whether the part ends the message.
     * @return false when they did not fit; the window is forgotten then.
     */
    public boolean deflate(final ByteBuffer part, final ByteBuffer out, final boolean last)
    {
        final int start = out.position();
        deflater.setInput(part);
        deflater.deflate(out, Deflater.SYNC_FLUSH);
        // Room left over means the flush completed; a full buffer may hide more output.
        if (!out.hasRemaining() || !deflater.needsInput())
        {
            deflater.reset();
            out.position(start);
            return false;
        }
        if (!last)
        {
            return true; // the flush's empty stored block stays: inside the stream it is a no-op
        }
        if (out.position() == start)
        {
            // Nothing comes out when nothing went in since the last flush: an empty stored block's header,
            // whose length the peer's appended 00 00 ff ff supplies, ends the message (RFC 7692, 7.2.3.6).
            out.put((byte)0);
        }
        else
        {
            final int end = out.position() - 4;
            if (end < start || out.get(end) != 0 || out.get(end + 1) != 0 || out.get(end + 2) != (byte)0xFF ||
                out.get(end + 3) != (byte)0xFF)
            {
                throw new IllegalStateException("a sync flush ends with 00 00 ff ff");
            }
            out.position(end);
        }
        if (noContextTakeover)
        {
            deflater.reset();
        }
        return true;
    }

    /**
     * The most bytes a flushed part of this length compresses to, with room to spare (zlib's bound for any
     * settings, and a flush).
     *
     * @param length the part's bytes.
     * @return bytes of output, at most.
     */
    public static int bound(final int length)
    {
        return length + ((length + 7) >> 3) + ((length + 63) >> 6) + 16;
    }

    /**
     * Forgets the window, for a message whose compressed bytes the peer will never see.
     */
    public void reset()
    {
        deflater.reset();
    }

    /**
     * Frees the native compressor.
     */
    @Override
    public void close()
    {
        deflater.end();
    }
}
