package io.celer.bench.http;

import java.util.List;

import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.ListedPeer;
import io.celer.bench.harness.NativeTransport;
import io.celer.bench.harness.Peer;
import io.celer.bench.http.peer.CelerHttpServer;
import io.celer.bench.http.peer.GrizzlyServer;
import io.celer.bench.http.peer.NettyHttpServer;
import io.celer.bench.http.peer.NioPoolServer;
import io.celer.bench.http.peer.ThreadPerConnectionServer;
import io.celer.bench.http.peer.VertxHttpServer;
import io.celer.bench.http.peer.VirtualThreadServer;
import io.celer.bench.peer.server.ReactorIdle;

/**
 * The HTTP servers the benchmarks load: the 2009 paper's styles, TechEmpower's Netty and Vert.x, and Celer; each
 * a main class of {@code io.celer.bench.http.peer} run as its own process.
 */
enum HttpPeer implements ListedPeer
{
    /** A platform thread per connection over blocking sockets. */
    THREAD_PER_CONNECTION(peer("thread-per-connection", "thread per connection (blocking java.net sockets)", null),
        ThreadPerConnectionServer.class, 17),
    /** One selector thread handing requests to a fixed pool. */
    NIO_POOL(peer("nio-pool", "NIO selector thread + pool of 4 worker threads", null), NioPoolServer.class, 17),
    /** Grizzly's HTTP server, as in the paper. */
    GRIZZLY(peer("grizzly", "Grizzly HTTP server (NIO framework)", null), GrizzlyServer.class, 17),
    /** A virtual thread per connection over blocking sockets: the paper's simplest style on a new JDK. */
    VIRTUAL_THREADS(peer("virtual-threads", "virtual thread per connection (blocking sockets, JDK 21+)", null),
        VirtualThreadServer.class, 21),
    /** Netty's HTTP codec on an epoll event loop per server reactor. */
    NETTY(peer("netty", "Netty 4.1 HttpServerCodec, an epoll event loop per server reactor", "epoll"),
        NettyHttpServer.class, 17),
    /** The same server on Netty 4.2's epoll transport (celer-bench-netty42). */
    NETTY42_EPOLL(FixedPeer.netty42("netty42-epoll", "Netty 4.2 HttpServerCodec, an epoll event loop per server "
        + "reactor", "epoll"), NettyHttpServer.class, 17),
    /** The same server on Netty 4.2's io_uring transport. */
    NETTY42_URING(FixedPeer.netty42("netty42-uring", "Netty 4.2 HttpServerCodec, an io_uring event loop per server "
        + "reactor", "uring"), NettyHttpServer.class, 17),
    /** Vert.x on an event loop per server reactor. */
    VERTX(peer("vertx", "Vert.x 4 HTTP server, an event loop per server reactor", null), VertxHttpServer.class, 17),
    /** Celer's HttpServer on reactors that wait in the selector when idle, as Netty's and Vert.x's loops do. */
    CELER(new FixedPeer("celer", "Celer HttpServer, reactors waiting in the selector when idle", true, null),
        CelerHttpServer.class, 17, ReactorIdle.SELECT),
    /** Celer's HttpServer on its epoll transport (celer-native, FFM, JDK 22+), reactors waiting when idle. */
    CELER_EPOLL(new FixedPeer("celer-epoll", "Celer HttpServer on the epoll transport (celer-native, FFM), reactors "
        + "waiting in the selector when idle", true, NativeTransport.EPOLL), CelerHttpServer.class, 17,
        ReactorIdle.SELECT),
    /** Celer's HttpServer on its io_uring transport (celer-native, FFM, JDK 22+), reactors waiting when idle. */
    CELER_URING(new FixedPeer("celer-uring", "Celer HttpServer on the io_uring transport (celer-native, FFM), "
        + "reactors waiting in the ring when idle", true, NativeTransport.URING), CelerHttpServer.class, 17,
        ReactorIdle.SELECT),
    /** Celer's HttpServer on reactors that spin and yield when idle: the lowest latency, a CPU each always busy. */
    CELER_SPIN(new FixedPeer("celer-spin", "Celer HttpServer, reactors spinning and yielding when idle", true, null),
        CelerHttpServer.class, 17, ReactorIdle.YIELD);

    private final FixedPeer self;
    private final String mainClass;
    private final int minimumJdk;
    private final ReactorIdle idle;

    HttpPeer(final FixedPeer self, final Class<?> server, final int minimumJdk)
    {
        this(self, server, minimumJdk, null);
    }

    HttpPeer(final FixedPeer self, final Class<?> server, final int minimumJdk, final ReactorIdle idle)
    {
        this.self = self;
        this.mainClass = server.getName();
        this.minimumJdk = minimumJdk;
        this.idle = idle;
    }

    private static FixedPeer peer(final String id, final String description, final String transport)
    {
        return new FixedPeer(id, description, false, transport);
    }

    /**
     * Parses a comma-separated list of server names.
     *
     * @param names such as {@code celer,netty}.
     * @return the servers, in the order given.
     * @throws IllegalArgumentException on an unknown name.
     */
    static List<HttpPeer> parse(final String names)
    {
        return Peer.parse(names, values(), "peer");
    }

    @Override
    public FixedPeer self()
    {
        return self;
    }

    /**
     * The server's main class.
     *
     * @return the class name.
     */
    String mainClass()
    {
        return mainClass;
    }

    /**
     * What a Celer server's reactors do when idle.
     *
     * @return its {@code --idle} mode, or null for a server that is not Celer's.
     */
    ReactorIdle idle()
    {
        return idle;
    }

    /**
     * The oldest JDK the server runs on.
     *
     * @return the feature version, such as 21.
     */
    int minimumJdk()
    {
        return minimumJdk;
    }
}
