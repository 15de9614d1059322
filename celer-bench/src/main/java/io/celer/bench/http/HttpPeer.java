package io.celer.bench.http;

import java.util.List;

import io.celer.bench.harness.Peer;
import io.celer.bench.http.peer.CelerHttpServer;
import io.celer.bench.http.peer.GrizzlyServer;
import io.celer.bench.http.peer.NettyHttpServer;
import io.celer.bench.http.peer.NioPoolServer;
import io.celer.bench.http.peer.ThreadPerConnectionServer;
import io.celer.bench.http.peer.VertxHttpServer;
import io.celer.bench.http.peer.VirtualThreadServer;

/**
 * The HTTP servers the benchmarks load: the 2009 paper's styles, TechEmpower's Netty and Vert.x, and Celer; each
 * a main class of {@code io.celer.bench.http.peer} run as its own process.
 */
enum HttpPeer implements Peer
{
    /** A platform thread per connection over blocking sockets. */
    THREAD_PER_CONNECTION("thread-per-connection", "thread per connection (blocking java.net sockets)",
        ThreadPerConnectionServer.class, 17),
    /** One selector thread handing requests to a fixed pool. */
    NIO_POOL("nio-pool", "NIO selector thread + pool of 4 worker threads", NioPoolServer.class, 17),
    /** Grizzly's HTTP server, as in the paper. */
    GRIZZLY("grizzly", "Grizzly HTTP server (NIO framework)", GrizzlyServer.class, 17),
    /** A virtual thread per connection over blocking sockets: the paper's simplest style on a new JDK. */
    VIRTUAL_THREADS("virtual-threads", "virtual thread per connection (blocking sockets, JDK 21+)",
        VirtualThreadServer.class, 21),
    /** Netty's HTTP codec on one epoll event loop. */
    NETTY("netty", "Netty 4.1 HttpServerCodec, one epoll event loop", NettyHttpServer.class, 17),
    /** Vert.x on one event loop. */
    VERTX("vertx", "Vert.x 4 HTTP server, one event loop", VertxHttpServer.class, 17),
    /** Celer's HttpServer on one reactor that spins and yields. */
    CELER("celer", "Celer HttpServer, one reactor spinning and yielding", CelerHttpServer.class, 17);

    private final String id;
    private final String description;
    private final String mainClass;
    private final int minimumJdk;

    HttpPeer(final String id, final String description, final Class<?> server, final int minimumJdk)
    {
        this.id = id;
        this.description = description;
        this.mainClass = server.getName();
        this.minimumJdk = minimumJdk;
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
        return this == CELER;
    }

    /**
     * Netty's transport; the others take no {@code --transport}.
     *
     * @return {@code epoll} for Netty, else null.
     */
    @Override
    public String transport()
    {
        return this == NETTY ? "epoll" : null;
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
     * The oldest JDK the server runs on.
     *
     * @return the feature version, such as 21.
     */
    int minimumJdk()
    {
        return minimumJdk;
    }
}
