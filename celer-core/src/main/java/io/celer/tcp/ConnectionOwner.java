package io.celer.tcp;

/**
 * The server or client a connection reports its end to.
 */
interface ConnectionOwner
{
    /**
     * The handler each new channel of its connections starts with: kept here, once, rather than on every
     * connection.
     *
     * @return the application's handler.
     */
    Handler handler();

    /**
     * The connection is established, before its handler hears of it.
     *
     * @param connection the connection.
     */
    void onOpened(TcpConnection connection);

    /**
     * The connection closed, after its handler heard of it.
     *
     * @param connection the connection.
     * @param reason     why.
     */
    void onClosed(TcpConnection connection, CloseReason reason);

    /**
     * Whether closed connections come back through {@link #reuse}: a server's, when its config says so.
     *
     * @return true to have them back.
     */
    default boolean reusesConnections()
    {
        return false;
    }

    /**
     * A closed connection, its handler told and its socket closed, for a later one.
     *
     * @param connection the connection, whose channel is gone.
     */
    default void reuse(final TcpConnection connection)
    {
    }

    /**
     * The bound on handshakes at once that the owner's connections share: a server's, on its reactor.
     *
     * @return the gate, or null for no bound.
     */
    default HandshakeGate handshakeGate()
    {
        return null;
    }
}
