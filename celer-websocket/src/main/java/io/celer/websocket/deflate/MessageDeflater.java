package io.celer.websocket.deflate;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * Compresses whole messages for permessage-deflate (RFC 7692 section 7.2.1): raw DEFLATE, flushed with
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
        final int start = out.position();
        deflater.setInput(message);
        deflater.deflate(out, Deflater.SYNC_FLUSH);
        // Room left over means the flush completed; a full buffer may hide more output.
        if (!out.hasRemaining() || !deflater.needsInput() || out.position() - start < 4)
        {
            deflater.reset();
            out.position(start);
            return false;
        }
        final int end = out.position() - 4;
        if (out.get(end) != 0 || out.get(end + 1) != 0 || out.get(end + 2) != (byte)0xFF ||
            out.get(end + 3) != (byte)0xFF)
        {
            throw new IllegalStateException("a sync flush ends with 00 00 ff ff");
        }
        out.position(end);
        if (noContextTakeover)
        {
            deflater.reset();
        }
        return true;
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
