package io.celer.bench.ws;

import io.celer.bench.harness.NativeTransport;
import io.celer.bench.harness.Peer;
import io.celer.bench.ws.peer.CelerWebSocketServer;
import io.celer.bench.ws.peer.NettyWebSocketServer;
import io.celer.bench.ws.peer.VertxWebSocketServer;

/**
 * The feed servers compared; every one is read by the same Celer load client.
 */
enum WsPeer implements Peer
{
    /** Celer's ws-feed server: bounded per-client outboxes dropping their oldest message. */
    CELER("celer", "Celer ws-feed, per-client outboxes", CelerWebSocketServer.class),
    /** The same, its reactors spinning and yielding between ticks instead of waiting in the selector. */
    CELER_SPIN("celer-spin", "Celer ws-feed, per-client outboxes, reactors spinning and yielding",
        CelerWebSocketServer.class),
    /** Celer's ws-feed server on its epoll transport (celer-native, FFM, JDK 22+). */
    CELER_EPOLL("celer-epoll", "Celer ws-feed, per-client outboxes, epoll transport (celer-native, FFM)",
        CelerWebSocketServer.class),
    /** Celer's ws-feed server on its io_uring transport (celer-native, FFM, JDK 22+). */
    CELER_URING("celer-uring", "Celer ws-feed, per-client outboxes, io_uring transport (celer-native, FFM)",
        CelerWebSocketServer.class),
    /** Netty's WebSocket codec on an epoll event loop per server reactor, dropping while a channel is not writable. */
    NETTY("netty", "Netty WebSocket, an epoll event loop per server reactor", NettyWebSocketServer.class),
    /** The same server on Netty 4.2's epoll transport (celer-bench-netty42). */
    NETTY42_EPOLL("netty42-epoll", "Netty 4.2 WebSocket, an epoll event loop per server reactor",
        NettyWebSocketServer.class),
    /** The same server on Netty 4.2's io_uring transport. */
    NETTY42_URING("netty42-uring", "Netty 4.2 WebSocket, an io_uring event loop per server reactor",
        NettyWebSocketServer.class),
    /** Vert.x's WebSocket server on an event loop per server reactor, dropping while its write queue is full. */
    VERTX("vertx", "Vert.x 4 WebSocket, an event loop per server reactor", VertxWebSocketServer.class);

    private final String id;
    private final String description;
    private final String server;

    WsPeer(final String id, final String description, final Class<?> server)
    {
        this.id = id;
        this.description = description;
        this.server = server.getName();
    }

    @Override
    public String id()
    {
        return id;
    }

    @Override
    public String description()
    {
        return description;
    }

    @Override
    public boolean isCeler()
    {
        return this == CELER || this == CELER_SPIN || this == CELER_EPOLL || this == CELER_URING;
    }

    @Override
    public String transport()
    {
        return this == CELER_EPOLL || this == NETTY42_EPOLL ? NativeTransport.EPOLL
            : this == CELER_URING || this == NETTY42_URING ? NativeTransport.URING : null;
    }

    @Override
    public boolean onNetty42()
    {
        return this == NETTY42_EPOLL || this == NETTY42_URING;
    }

    /**
     * The server's main class.
     *
     * @return its name.
     */
    String server()
    {
        return server;
    }
}
