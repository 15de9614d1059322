package io.celer.tcp;

import java.nio.ByteBuffer;

/**
 * The application's side of a connection: the callbacks of its life, all on the reactor thread.
 *
 * <p>Every method has a default that does nothing (a message is consumed and dropped), so a handler
 * implements only what it needs. An exception thrown by any method goes to {@link #error} and closes that
 * connection with {@link CloseReason#HANDLER_ERROR}; other connections carry on.
 *
 * <p>The same events, under the same names, reach every layer's handler: a connection hands itself to another
 * handler with {@link Connection#handler(Handler)} (an HTTP connection to its WebSocket after an upgrade, say),
 * and the new handler hears {@link #opened} and then every event in its place.
 */
public interface Handler
{
    /**
     * The connection is established and may be written to, or was just handed to this handler.
     *
     * @param connection the connection.
     */
    default void opened(final Connection connection)
    {
    }

    /**
     * The connection is closed; it can no longer be written to. Called once per opened connection, and
     * for a client whose connect failed.
     *
     * @param connection the connection.
     * @param reason     why.
     */
    default void closed(final Connection connection, final CloseReason reason)
    {
    }

    /**
     * One whole message, as cut by the connection's framing.
     *
     * <p>The buffer is valid only during the call; copy what must outlive it. The handler may read it and
     * move its position and limit freely.
     *
     * @param connection the connection.
     * @param message    the message between position and limit.
     */
    default void message(final Connection connection, final ByteBuffer message)
    {
        message.position(message.limit());
    }

    /**
     * The messages of one read are all delivered: a good place to flush replies written with
     * {@link Connection#write}.
     *
     * @param connection the connection.
     */
    default void batchProcessed(final Connection connection)
    {
    }

    /**
     * The connection may be written to again: a lagging connection drained some of its write buffer to the socket.
     *
     * @param connection the connection.
     * @param freeBytes  room now free in the write buffer.
     */
    default void writable(final Connection connection, final int freeBytes)
    {
    }

    /**
     * The event timeout set with {@link Connection#setEventTimeout} expired.
     *
     * @param connection the connection.
     * @param nowMillis  the reactor clock.
     */
    default void eventTimeout(final Connection connection, final long nowMillis)
    {
    }

    /**
     * No byte arrived for the read timeout set with {@link Connection#setReadTimeout}; repeats for each
     * further period of silence until the connection closes.
     *
     * @param connection the connection.
     * @param nowMillis  the reactor clock.
     */
    default void readTimeout(final Connection connection, final long nowMillis)
    {
    }

    /**
     * Something failed on this connection: its I/O, its framing, its connect, or this handler. The
     * connection closes right after, and {@link #closed} tells why.
     *
     * @param connection the connection.
     * @param error      the cause.
     */
    default void error(final Connection connection, final Throwable error)
    {
    }
}
