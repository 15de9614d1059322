package io.celer.bench.peer.netty;

import io.celer.bench.peer.server.PeerOptions;
import picocli.CommandLine.Option;

/**
 * The option every Netty HTTP and WebSocket peer takes beside {@link PeerOptions}: which Netty transport its
 * event loop runs on.
 */
public final class TransportOption
{
    @Option(names = "--transport", defaultValue = "epoll", description = "nio, epoll, epoll-busy or uring (Netty 4.2).")
    String transport;

    /**
     * The transport asked for.
     *
     * @return {@code nio}, {@code epoll}, {@code epoll-busy} or {@code uring}.
     */
    public String name()
    {
        return transport;
    }
}
