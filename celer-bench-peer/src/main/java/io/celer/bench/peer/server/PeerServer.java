package io.celer.bench.peer.server;

/**
 * A server the HTTP and WebSocket benchmarks compare Celer with: started once, probed, stopped once.
 */
public interface PeerServer
{
    /**
     * Binds and starts serving.
     *
     * @return the bound port and the server's probe.
     * @throws Exception if it cannot start.
     */
    Serving start() throws Exception;

    /**
     * Closes the listener and every connection, and ends its threads.
     */
    void stop();

    /**
     * A started server.
     *
     * @param port  the bound port.
     * @param probe what it allocated, collected and served since the last mark.
     */
    record Serving(int port, ServerProbe probe)
    {
    }
}
