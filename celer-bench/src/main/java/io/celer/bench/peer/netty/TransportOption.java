package io.celer.bench.peer.netty;

import io.celer.bench.peer.server.PeerOptions;
import picocli.CommandLine.Option;

/**
 * The option every Netty HTTP and WebSocket peer takes beside {@link PeerOptions}: which Netty transport its
 * event loop runs on.
 */
public final class TransportOption
{
    @Option(names = "--transport", defaultValue = "epoll", description = "nio, epoll or epoll-busy.")
    String transport;

    /**
     * The transport asked for.
     *
     * @return {@code nio}, {@code epoll} or {@code epoll-busy}.
     */
    public String name()
    {
        return transport;
    }
}
