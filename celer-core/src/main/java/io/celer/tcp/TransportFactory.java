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
     * Checks the settings once, when a server or client opens, so mistakes fail early and clearly.
     *
     * @throws IllegalStateException if the settings cannot work.
     */
    default void check()
    {
    }
}
