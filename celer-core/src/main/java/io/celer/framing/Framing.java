package io.celer.framing;

import java.nio.ByteBuffer;

/**
 * A strategy that cuts a byte stream into messages and wraps outgoing messages.
 *
 * <p>One instance serves one connection, so an implementation may keep per-connection state (how far it has
 * scanned, say). Its methods run on the reactor thread and must not allocate.
 */
public interface Framing
{
    /**
     * Delivers every whole message between the buffer's position and limit to the sink, one per call.
     *
     * <p>On return the position marks the first byte not consumed: the start of a partial message, which
     * waits for more bytes. A message's bounds are restored after the sink returns, whatever the sink did
     * with position and limit.
     *
     * @param buffer the read buffer, flipped.
     * @param sink   receives each message.
     * @throws FramingException if the bytes break the framing; the connection then closes.
     */
    void decode(ByteBuffer buffer, MessageSink sink);

    /**
     * Bytes that a message occupies on the wire.
     *
     * @param payloadLength the message's length.
     * @return the frame's length, payload included.
     * @throws IllegalArgumentException if this framing cannot carry a message of that length.
     */
    int frameLength(int payloadLength);

    /**
     * Writes what precedes the payload; nothing by default, for a framing whose messages carry their own bounds.
     *
     * @param out           the write buffer, with room for the whole frame.
     * @param payloadLength the message's length.
     */
    default void writeHeader(ByteBuffer out, int payloadLength)
    {
    }

    /**
     * Writes what follows the payload; nothing by default.
     *
     * @param out the write buffer.
     */
    default void writeTrailer(ByteBuffer out)
    {
    }

    /**
     * Forgets per-connection state, for a connection that starts over.
     */
    default void reset()
    {
    }

    /**
     * The longest frame a peer may send, so a connection can check that its read buffer holds one.
     *
     * @return bytes, or {@link Integer#MAX_VALUE} when any read buffer works (raw bytes).
     */
    int maxFrameLength();
}
