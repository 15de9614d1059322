package io.celer.bench.http.peer;

/**
 * A server the HTTP and WebSocket benchmarks compare Celer with: started once, probed, stopped once.
 */
public interface PeerServer
{
    /**
     * Binds and starts serving.
     *
     * @return the bound port.
     * @throws Exception if it cannot start.
     */
    int start() throws Exception;

    /**
     * What it allocated, collected and served since the last mark.
     *
     * @return the probe, valid after {@link #start()}.
     */
    ServerProbe probe();

    /**
     * Closes the listener and every connection, and ends its threads.
     */
    void stop();
}
