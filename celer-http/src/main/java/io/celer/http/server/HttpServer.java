package io.celer.http.server;

import java.net.InetSocketAddress;

import io.celer.framing.RawFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * An HTTP/1.1 server on one reactor, plain or TLS (through {@link HttpServerConfig#tcp}), garbage-free in
 * steady state.
 *
 * <pre>{@code
 * HttpServer server = new HttpServer(reactor, 8080, new HttpServerConfig(),
 *     Router.builder().get("/plaintext", (req, res) -> res.header("Content-Type", "text/plain").body(HELLO))
 *         .build()).open();
 * }</pre>
 */
public final class HttpServer implements AutoCloseable
{
    private final Reactor reactor;
    private final TcpServer tcp;
    private final DateHeader date = new DateHeader();
    private final ConnectionRecycler recycler;

    /**
     * A server; nothing is bound until {@link #open()}.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     * @param config  its settings, read now.
     * @param handler the application (a {@link Router}, say).
     * @throws IllegalArgumentException if the settings cannot work together.
     */
    public HttpServer(final Reactor reactor, final int port, final HttpServerConfig config, final HttpHandler handler)
    {
        if (handler == null)
        {
            throw new IllegalArgumentException("handler must not be null");
        }
        config.check();
        this.reactor = reactor;
        final TcpConfig tcpConfig = config.tcp().copy()
            .framing(RawFraming::new)
            .readBufferSize(config.readBufferSize())
            .disconnectOnFullWriteBuffer(false); // responses hold their own bounded backlog
        final ServerHandler tcpHandler = new ServerHandler(config, handler, date);
        this.recycler = tcpHandler.recycler();
        this.tcp = new TcpServer(reactor, port, tcpConfig, tcpHandler);
    }

    /** What closed connections left for the next; tests look at it on the reactor thread. */
    ConnectionRecycler recycler()
    {
        return recycler;
    }

    /**
     * Binds and starts serving.
     *
     * @return this.
     */
    public HttpServer open()
    {
        tcp.open();
        reactor.execute(() -> date.start(reactor));
        return this;
    }

    /**
     * The port it listens on.
     *
     * @return the port, or -1 before open.
     */
    public int port()
    {
        return tcp.port();
    }

    /**
     * The address it listens on.
     *
     * @return the address, or null before open.
     */
    public InetSocketAddress localAddress()
    {
        return tcp.localAddress();
    }

    /**
     * Open connections; exact on the reactor thread.
     *
     * @return the count.
     */
    public int connectionCount()
    {
        return tcp.connectionCount();
    }

    /**
     * Stops listening and closes every connection.
     */
    @Override
    public void close()
    {
        reactor.execute(date::stop);
        tcp.close();
    }
}
