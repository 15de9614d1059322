package io.celer.bench.http.tfb;

import java.util.List;
import java.util.Map;

import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.ListedPeer;
import io.celer.bench.harness.NativeTransport;
import io.celer.bench.harness.Peer;
import io.celer.bench.http.peer.NettyHttpServer;
import io.celer.bench.http.peer.VertxHttpServer;
import io.celer.bench.http.tfb.peer.CelerTfbServer;

/**
 * The servers the TechEmpower-style benchmarks load, each a main class run as its own process: Celer's of
 * {@code io.celer.bench.http.tfb.peer}, and {@code bench http}'s Vert.x and Netty peers, which serve {@code /json}
 * too.
 */
enum TfbPeer implements ListedPeer
{
    /** Celer's HttpServer, its reactors waiting in the selector when idle, as event loops do. */
    CELER(new FixedPeer("celer", "Celer HttpServer, reactors waiting in the selector when idle", true, null),
        CelerTfbServer.class, Map.of()),
    /** Celer's HttpServer on its epoll transport (celer-native, FFM, JDK 22+), reactors waiting when idle. */
    CELER_EPOLL(new FixedPeer("celer-epoll", "Celer HttpServer on the epoll transport (celer-native, FFM), reactors "
        + "waiting in the selector when idle", true, NativeTransport.EPOLL), CelerTfbServer.class, Map.of()),
    /** Celer's HttpServer on its io_uring transport (celer-native, FFM, JDK 22+), reactors waiting when idle. */
    CELER_URING(new FixedPeer("celer-uring", "Celer HttpServer on the io_uring transport (celer-native, FFM), "
        + "reactors waiting in the ring when idle", true, NativeTransport.URING), CelerTfbServer.class, Map.of()),
    /** Celer's HttpServer, its reactors spinning and yielding. */
    CELER_SPIN(new FixedPeer("celer-spin", "Celer HttpServer, reactors spinning and yielding", true, null),
        CelerTfbServer.class, Map.of("spin", true)),
    /** Vert.x 4 as its TechEmpower entry. */
    VERTX(new FixedPeer("vertx", "Vert.x 4 HTTP server, an event loop per server reactor", false, null),
        VertxHttpServer.class, Map.of()),
    /** Netty as its TechEmpower entry, on native epoll. */
    NETTY(new FixedPeer("netty", "Netty 4.1 HttpServerCodec, an epoll event loop per server reactor", false,
        "epoll"), NettyHttpServer.class, Map.of()),
    /** The same server on Netty 4.2's epoll transport (celer-bench-netty42). */
    NETTY42_EPOLL(FixedPeer.netty42("netty42-epoll", "Netty 4.2 HttpServerCodec, an epoll event loop per server "
        + "reactor", "epoll"), NettyHttpServer.class, Map.of()),
    /** The same server on Netty 4.2's io_uring transport. */
    NETTY42_URING(FixedPeer.netty42("netty42-uring", "Netty 4.2 HttpServerCodec, an io_uring event loop per server "
        + "reactor", "uring"), NettyHttpServer.class, Map.of());

    private final FixedPeer self;
    private final String mainClass;
    private final Map<String, Object> args;

    TfbPeer(final FixedPeer self, final Class<?> server, final Map<String, Object> args)
    {
        this.self = self;
        this.mainClass = server.getName();
        this.args = args;
    }

    /**
     * Parses a comma-separated list of server names.
     *
     * @param names such as {@code celer,netty}.
     * @return the servers, in the order given.
     * @throws IllegalArgumentException on an unknown name.
     */
    static List<TfbPeer> parse(final String names)
    {
        return Peer.parse(names, values(), "peer");
    }

    @Override
    public FixedPeer self()
    {
        return self;
    }

    /** @return the server's main class. */
    String mainClass()
    {
        return mainClass;
    }

    /** @return the server's own arguments, beside the port and the CPUs. */
    Map<String, Object> args()
    {
        return args;
    }
}
