package io.celer.websocket.internal;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;

/**
 * The sending half of a session: encodes each frame into the thread's staging buffer (see {@link FrameStaging}),
 * used only up to what the connection's write buffer holds, then copies it into that write buffer. A frame that
 * could never fit is the caller's mistake and throws; one that does not fit now is refused with the payload left
 * where it was, for a retry.
 */
final class FrameWriter
{
    /** A server's encoder has no state: every server session shares this one. */
    private static final FrameEncoder UNMASKED = new FrameEncoder();

    private final FrameEncoder encoder;
    private Connection connection;
    /** Shared with the thread's other sessions; used only up to the connection's write buffer capacity. */
    private ByteBuffer frames;

    FrameWriter(final MaskKeys keys)
    {
        this.encoder = keys == null ? UNMASKED : new FrameEncoder(keys);
    }

    void open(final Connection connection)
    {
        this.connection = connection;
        frames = FrameStaging.forCurrentThread(connection.writeBufferCapacity());
    }

    FrameEncoder encoder()
    {
        return encoder;
    }

    /** The staging buffer, cleared and limited to what this connection's write buffer holds. */
    ByteBuffer frames()
    {
        return frames.clear().limit(connection.writeBufferCapacity());
    }

    /** Copies encoded frames into the connection's write buffer. */
    boolean write(final ByteBuffer encoded)
    {
        return connection.write(encoded);
    }

    /** Sends one frame of the payload's bytes; refused, the payload's position is kept for a retry. */
    boolean write(final int opcode, final boolean fin, final ByteBuffer payload)
    {
        final int at = payload.position();
        frames();
        if (!encoder.encode(frames, opcode, fin, false, payload))
        {
            throw tooLarge(payload.remaining());
        }
        frames.flip();
        if (connection.write(frames))
        {
            return true;
        }
        payload.position(at);
        return false;
    }

    /** Sends one frame of text encoded as UTF-8 on the way. */
    boolean write(final int opcode, final boolean fin, final CharSequence text)
    {
        frames();
        if (!encoder.encode(frames, opcode, fin, text))
        {
            throw tooLarge(FrameEncoder.utf8Length(text));
        }
        frames.flip();
        return connection.write(frames);
    }

    /**
     * Whether the write buffer holds a frame of this many bytes, flushing once if it does not yet. A refusal here
     * is what {@link Connection#write} does on the connections WebSockets run on, which {@code HttpServer} and
     * {@code WebSocketClient} open with {@code disconnectOnFullWriteBuffer} off.
     *
     * @throws IllegalArgumentException if it never could.
     */
    boolean makeRoom(final int bytes)
    {
        if (bytes > connection.writeBufferCapacity())
        {
            throw tooLarge(bytes);
        }
        if (connection.writeBufferRemaining() < bytes)
        {
            connection.flush();
        }
        return connection.writeBufferRemaining() >= bytes;
    }

    /** Sends a close frame; false when the write buffer has no room for it. */
    boolean writeClose(final int code, final CharSequence why)
    {
        frames();
        encoder.encodeClose(frames, code, why);
        frames.flip();
        return connection.write(frames);
    }

    private IllegalArgumentException tooLarge(final int length)
    {
        return new IllegalArgumentException("a frame of " + length + " bytes does not fit the write buffer of " +
            connection.writeBufferCapacity() + "; send it in fragments");
    }
}
