package io.celer.tcp;

/**
 * The server or client a connection reports its end to.
 */
interface ConnectionOwner
{
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
     * The bound on handshakes at once that the owner's connections share: a server's, on its reactor.
     *
     * @return the gate, or null for no bound.
     */
    default HandshakeGate handshakeGate()
    {
        return null;
    }
}
