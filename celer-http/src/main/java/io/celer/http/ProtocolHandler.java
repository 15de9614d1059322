package io.celer.http;

import java.nio.ByteBuffer;

import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;

/**
 * The protocol a server connection speaks: HTTP/1.1 at first, another one (WebSocket, say) after a
 * {@code 101 Switching Protocols} answered with {@link HttpResponse#upgrade}. One object per connection, on
 * the reactor thread.
 */
public interface ProtocolHandler
{
    /**
     * Bytes read and not yet consumed: the protocol consumes what it can (moving the position); the rest stays
     * for the next call, joined by the next bytes read. Right after an upgrade, the first call carries the
     * bytes the peer sent after its upgrade request.
     *
     * @param connection the connection.
     * @param data       the bytes between position and limit.
     */
    void onData(Connection connection, ByteBuffer data);

    /**
     * The protocol now owns the connection (after an upgrade).
     *
     * @param connection the connection.
     */
    default void onStart(Connection connection)
    {
    }

    /**
     * A lagging connection drained some of its write buffer.
     *
     * @param connection the connection.
     * @param freeBytes  room now free in the write buffer.
     */
    default void onWriteSpaceFreed(Connection connection, int freeBytes)
    {
    }

    /**
     * The connection's event timeout expired.
     *
     * @param connection the connection.
     * @param nowMillis  the reactor clock.
     */
    default void onEventTimeout(Connection connection, long nowMillis)
    {
    }

    /**
     * No byte arrived for the connection's read timeout.
     *
     * @param connection the connection.
     * @param nowMillis  the reactor clock.
     */
    default void onReadTimeout(Connection connection, long nowMillis)
    {
    }

    /**
     * The connection closed.
     *
     * @param connection the connection.
     * @param reason     why.
     */
    default void onClosed(Connection connection, CloseReason reason)
    {
    }
}
