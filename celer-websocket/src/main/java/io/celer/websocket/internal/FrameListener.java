package io.celer.websocket.internal;

import java.nio.ByteBuffer;

/**
 * Receives what a {@link FrameDecoder} decodes: data frame headers, their payload in chunks, and whole control
 * frames. Each method returns {@link #CONTINUE}, {@link #STOP}, or a close code that fails the connection.
 */
public interface FrameListener
{
    /** Go on decoding. */
    int CONTINUE = 0;
    /** Stop decoding without error (the session is closing); the decoder consumes nothing more. */
    int STOP = -1;
    /**
     * From {@link #onPayload} only: stop decoding for now, the chunk consumed up to its position; the rest of the
     * frame is delivered from there by the next {@link FrameDecoder#decode} call.
     */
    int PAUSE = -2;

    /**
     * A data frame's header, after the decoder checked it against the protocol.
     *
     * @param opcode        {@link Opcode#TEXT}, {@link Opcode#BINARY} or {@link Opcode#CONTINUATION}.
     * @param fin           whether it is the message's last frame.
     * @param rsv1          the per-message compression bit (set only on a first frame, with the extension on).
     * @param payloadLength the frame's payload length.
     * @return {@link #CONTINUE}, {@link #STOP} or a close code.
     */
    int onDataFrame(int opcode, boolean fin, boolean rsv1, long payloadLength);

    /**
     * A chunk of a data frame's payload, unmasked, between position and limit; valid only during the call.
     * Every data frame ends with one call whose {@code frameEnd} is true, possibly with an empty chunk.
     *
     * @param payload  the chunk; the listener may move position and limit (but, pausing, only the position).
     * @param frameEnd whether this is the frame's last chunk.
     * @return {@link #CONTINUE}, {@link #STOP}, {@link #PAUSE} or a close code.
     */
    int onPayload(ByteBuffer payload, boolean frameEnd);

    /**
     * A whole control frame (close, ping or pong), unmasked, its payload between position and limit.
     *
     * @param opcode  {@link Opcode#CLOSE}, {@link Opcode#PING} or {@link Opcode#PONG}.
     * @param payload up to 125 bytes, valid only during the call.
     * @return {@link #CONTINUE}, {@link #STOP} or a close code.
     */
    int onControlFrame(int opcode, ByteBuffer payload);
}
