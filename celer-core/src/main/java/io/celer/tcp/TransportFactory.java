package io.celer.tcp;

/**
 * Makes a {@link Transport} for each connection.
 */
public interface TransportFactory
{
    /**
     * Bytes as they are, the default. A method, not a constant: a constant here would be read while the plain
     * transport, which is also a factory, is still being initialized.
     *
     * @return the plain transport's factory.
     */
    static TransportFactory plain()
    {
        return PlainTransport.INSTANCE;
    }

    /**
     * A transport for a new connection.
     *
     * @param clientMode true on the side that connected.
     * @param peerHost   the host name the client connected to (for SNI and host name checks); null on a server.
     * @param peerPort   the port the client connected to; -1 on a server.
     * @return the transport.
     */
    Transport newTransport(boolean clientMode, String peerHost, int peerPort);

    /**
     * The most handshakes a server runs at once on one reactor; 0 (the default, and the plain transport's) for
     * no bound.
     *
     * @return the bound.
     */
    default int maxConcurrentHandshakes()
    {
        return 0;
    }

    /**
     * What a server does with a connection whose handshake would go beyond {@link #maxConcurrentHandshakes}:
     * wait, its socket not read, until a handshake ends ({@link TcpConfig.OverLimit#WAIT}, the default), or close.
     *
     * @return the policy.
     */
    default TcpConfig.OverLimit handshakesOverLimit()
    {
        return TcpConfig.OverLimit.WAIT;
    }

    /**
     * Checks the settings once, when a server or client opens, so mistakes fail early and clearly.
     *
     * @throws IllegalStateException if the settings cannot work.
     */
    default void check()
    {
    }
}
