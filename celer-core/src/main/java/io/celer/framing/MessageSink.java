package io.celer.framing;

import java.nio.ByteBuffer;

/**
 * Receives the messages a {@link Framing} cuts out of the read buffer.
 */
@FunctionalInterface
public interface MessageSink
{
    /**
     * One whole message, between the buffer's position and limit.
     *
     * @param message the read buffer, narrowed to the message; the receiver may move position and limit.
     * @return false to stop decoding, because the connection closed.
     */
    boolean onMessage(ByteBuffer message);
}
