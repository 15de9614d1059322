package io.celer.http.server;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.celer.framing.RawFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * An HTTP/1.1 server on one reactor or on every reactor of a {@link ReactorGroup}, plain or TLS (through
 * {@link HttpServerConfig#tcp}), garbage-free in steady state.
 *
 * <pre>{@code
 * HttpServer server = new HttpServer(reactor, 8080, new HttpServerConfig(),
 *     Router.builder().get("/plaintext", (req, res) -> res.header("Content-Type", "text/plain").body(HELLO))
 *         .build()).open();
 * }</pre>
 */
public final class HttpServer implements AutoCloseable
{
    private final TcpServer tcp;
    /** Each reactor's share: its thread's Date header and recycled connection parts. */
    private final List<Member> members = new ArrayList<>();

    /** What one reactor of the server keeps of its own. */
    private record Member(Reactor reactor, DateHeader date, ConnectionRecycler recycler)
    {
    }

    /**
     * A server on one reactor; nothing is bound until {@link #open()}.
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
        this.tcp = new TcpServer(reactor, port, tcpConfig(config), handlerOf(reactor, config, handler));
    }

    /**
     * A server on every reactor of a group, each with an application of its own, so that its state is only
     * ever touched by its reactor's thread; nothing is bound until {@link #open()}.
     *
     * @param group    the reactors that run it.
     * @param port     the port, 0 for an ephemeral one.
     * @param config   its settings, read now.
     * @param handlers makes the application of each reactor (a {@link Router}, say), called once per reactor now.
     * @throws IllegalArgumentException if the settings cannot work together.
     */
    public HttpServer(final ReactorGroup group, final int port, final HttpServerConfig config,
        final Function<Reactor, ? extends HttpHandler> handlers)
    {
        config.check();
        this.tcp = new TcpServer(group, port, tcpConfig(config), reactor ->
        {
            final HttpHandler handler = handlers.apply(reactor);
            if (handler == null)
            {
                throw new IllegalArgumentException("handler of " + reactor + " must not be null");
            }
            return handlerOf(reactor, config, handler);
        });
    }

    private static TcpConfig tcpConfig(final HttpServerConfig config)
    {
        return config.tcp().copy()
            .framing(() -> RawFraming.INSTANCE)
            .readBufferSize(config.readBufferSize())
            .disconnectOnFullWriteBuffer(false) // responses hold their own bounded backlog
            // A response hands out its connection, and it and a WebSocket session may outlive the close: a
            // reused connection object would give their bytes to the next peer.
            .reuseConnections(false);
    }

    private ServerHandler handlerOf(final Reactor reactor, final HttpServerConfig config, final HttpHandler handler)
    {
        final DateHeader date = new DateHeader();
        final ServerHandler tcpHandler = new ServerHandler(config, handler, date, reactor);
        members.add(new Member(reactor, date, tcpHandler.recycler()));
        return tcpHandler;
    }

    /** What closed connections of the first reactor left for the next; tests look at it on its thread. */
    ConnectionRecycler recycler()
    {
        return members.get(0).recycler();
    }

    /**
     * Binds and starts serving.
     *
     * @return this.
     */
    public HttpServer open()
    {
        tcp.open();
        for (final Member member : members)
        {
            member.reactor().execute(() -> member.date().start(member.reactor()));
        }
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
     * Open connections: exact on the thread of a one-reactor server, a recent sum over the reactors otherwise.
     *
     * @return the count.
     */
    public int connectionCount()
    {
        return tcp.connectionCount();
    }

    /**
     * Open connections on one reactor of the server; exact on that reactor's thread.
     *
     * @param index the reactor's index in its group, 0 on a one-reactor server.
     * @return the count.
     */
    public int connectionsOn(final int index)
    {
        return tcp.connectionsOn(index);
    }

    /**
     * Stops listening and closes every connection.
     */
    @Override
    public void close()
    {
        for (final Member member : members)
        {
            member.reactor().execute(member.date()::stop);
        }
        tcp.close();
    }
}
