package io.celer.bench.conns;

import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.ListedPeer;

/**
 * The servers whose idle connections are weighed: the HTTP and WebSocket benchmarks' own server peers, started as
 * those benchmarks start them (one event loop or reactor each, on the server's CPU). Named by main class, as the
 * other benchmarks name the shared peers: this benchmark runs their processes and imports none of their code.
 */
enum ConnsPeer implements ListedPeer
{
    /** Celer's HttpServer on one reactor; for WebSocket, the ws-feed server's {@code /echo}. */
    CELER(new FixedPeer("celer", "Celer, one reactor", true, null), "io.celer.bench.http.peer.CelerHttpServer",
        "io.celer.bench.ws.peer.CelerWebSocketServer"),
    /** The same on Celer's epoll transport (celer-native, JDK 22+): no JDK socket objects per connection. */
    CELER_EPOLL(new FixedPeer("celer-epoll", "Celer, one reactor, epoll transport", true, "epoll"),
        "io.celer.bench.http.peer.CelerHttpServer", "io.celer.bench.ws.peer.CelerWebSocketServer"),
    /** The same on Celer's io_uring transport: a provided buffer ring shared by the connections, no buffer each. */
    CELER_URING(new FixedPeer("celer-uring", "Celer, one reactor, io_uring transport", true, "uring"),
        "io.celer.bench.http.peer.CelerHttpServer", "io.celer.bench.ws.peer.CelerWebSocketServer"),
    /** Netty 4.1 on one epoll event loop: its HTTP codec, then its WebSocket handler. */
    NETTY(new FixedPeer("netty", "Netty 4.1, one epoll event loop", false, "epoll"),
        "io.celer.bench.http.peer.NettyHttpServer", "io.celer.bench.ws.peer.NettyWebSocketServer"),
    /** The same on Netty 4.2's epoll transport (celer-bench-netty42). */
    NETTY42_EPOLL(FixedPeer.netty42("netty42-epoll", "Netty 4.2, one epoll event loop", "epoll"),
        "io.celer.bench.http.peer.NettyHttpServer", "io.celer.bench.ws.peer.NettyWebSocketServer"),
    /** The same on Netty 4.2's io_uring transport. */
    NETTY42_URING(FixedPeer.netty42("netty42-uring", "Netty 4.2, one io_uring event loop", "uring"),
        "io.celer.bench.http.peer.NettyHttpServer", "io.celer.bench.ws.peer.NettyWebSocketServer"),
    /** Vert.x 4 on one event loop. */
    VERTX(new FixedPeer("vertx", "Vert.x 4, one event loop", false, null), "io.celer.bench.http.peer.VertxHttpServer",
        "io.celer.bench.ws.peer.VertxWebSocketServer");

    private final FixedPeer self;
    private final String httpServer;
    private final String wsServer;

    ConnsPeer(final FixedPeer self, final String httpServer, final String wsServer)
    {
        this.self = self;
        this.httpServer = httpServer;
        this.wsServer = wsServer;
    }

    @Override
    public FixedPeer self()
    {
        return self;
    }

    /**
     * The server's main class in a scenario.
     *
     * @param scenario what the clients do.
     * @return the class name.
     */
    String server(final Scenario scenario)
    {
        return scenario == Scenario.HTTP ? httpServer : wsServer;
    }
}
