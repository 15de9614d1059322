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

    /**
     * Hands a sink the bytes from {@code from} to {@code to} as one message, then gives the buffer back its limit
     * and moves its position to {@code next}, whatever the sink did with them: the step of every decode loop.
     *
     * @param sink   receives the message.
     * @param buffer the read buffer, its limit at the end of what was read.
     * @param from   the message's first byte.
     * @param to     one past its last byte.
     * @param next   where decoding goes on: {@code to}, or past a delimiter the message leaves out.
     * @return what the sink returned: false to stop decoding.
     */
    static boolean deliver(final MessageSink sink, final ByteBuffer buffer, final int from, final int to,
        final int next)
    {
        final int limit = buffer.limit();
        buffer.limit(to).position(from);
        final boolean more = sink.onMessage(buffer);
        buffer.limit(limit).position(next);
        return more;
    }
}
