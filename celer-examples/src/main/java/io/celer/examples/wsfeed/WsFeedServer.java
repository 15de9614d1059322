package io.celer.examples.wsfeed;

import java.io.PrintStream;
import java.net.InetSocketAddress;

import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.outbound.Fanout;
import io.celer.websocket.outbound.OutboundConfig;
import io.celer.websocket.outbound.Outbox;
import io.celer.websocket.outbound.OverflowPolicy;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * The ws-feed server: every path upgrades to a WebSocket that is offered {@code rate} messages a second of
 * {@code size} bytes ({@link FeedText}), generated each tick by a reactor timer ({@link FeedSchedule}) and sent
 * through the client's bounded outbox, whose policy drops the oldest, refuses the newest or closes with 1008 when
 * the client reads too slowly; the lag is logged once a second at most ({@link LagLog}).
 */
public final class WsFeedServer
{
    /** The reactive WebSocket feed's queue: 5,000 messages a client. */
    public static final int DEFAULT_QUEUED_MESSAGES = 5000;
    /**
     * A client's outbox in payload bytes: 256 KiB, about a second of that feed, so that a hundred slow clients
     * hold some 25 MiB of backlog instead of the 125 MiB of 5,000 messages each; a slow client loses its oldest
     * messages either way, and a fast one never queues.
     */
    public static final int DEFAULT_QUEUED_BYTES = 256 * 1024;
    /**
     * Each connection's read buffer: a feed client sends an upgrade request and control frames, so the HTTP
     * server's 64 KiB default would sit idle on every connection.
     */
    static final int READ_BUFFER = 16 * 1024;
    /**
     * Each connection's write buffer: a tick's messages for one client; a client that falls behind further has its
     * backlog in its outbox, whose storage is allocated only when it lags.
     */
    static final int WRITE_BUFFER = 16 * 1024;
    /** More than a frame's header and the close frame an outbox keeps room for: a larger message still fits. */
    private static final int FRAME_OVERHEAD = 1024;

    private final Reactor reactor;
    private final HttpServer http;
    private final Fanout fanout;
    private final FeedSchedule schedule;
    private final LagLog lag;

    /**
     * What the feed offers and how it bounds each client.
     *
     * @param rate       messages a second per client, at least 1.
     * @param size       bytes a message is padded to.
     * @param outbound   the outboxes' bounds and policy; its largest message must be at least
     *                   {@code max(size, FeedText.MAX_HEADER)}.
     * @param tickMillis the producer timer's period, at least 1.
     */
    public record Settings(int rate, int size, OutboundConfig outbound, int tickMillis)
    {
        /**
         * Checks the settings.
         *
         * @throws IllegalArgumentException on a value out of range.
         */
        public Settings
        {
            if (rate < 1 || tickMillis < 1 || size < 1)
            {
                throw new IllegalArgumentException("rate, size and tick must be positive: " + rate + ", " + size +
                    ", " + tickMillis);
            }
            if (outbound.maxMessageLength() < Math.max(size, FeedText.MAX_HEADER))
            {
                throw new IllegalArgumentException("the outboxes' largest message is below " + size + " bytes");
            }
        }
    }

    /**
     * Outboxes of messages of one size: a number of them a client, the bytes they take, a policy.
     *
     * @param policy   what a full outbox does.
     * @param messages the most messages an outbox holds.
     * @param size     bytes a message is padded to.
     * @return the settings.
     */
    public static OutboundConfig outbound(final OverflowPolicy policy, final int messages, final int size)
    {
        return outbound(policy, messages, OutboundConfig.MAX_QUEUED_BYTES_LIMIT, size);
    }

    /**
     * Outboxes of messages of one size, bounded in messages and in bytes, whichever is reached first.
     *
     * @param policy   what a full outbox does.
     * @param messages the most messages an outbox holds.
     * @param maxBytes the most payload bytes an outbox holds; raised to one message if below.
     * @param size     bytes a message is padded to.
     * @return the settings.
     */
    public static OutboundConfig outbound(final OverflowPolicy policy, final int messages, final int maxBytes,
        final int size)
    {
        final int longest = Math.max(size, FeedText.MAX_HEADER);
        final long bytes = Math.min(Math.min((long)messages * longest, maxBytes),
            OutboundConfig.MAX_QUEUED_BYTES_LIMIT);
        return new OutboundConfig().overflowPolicy(policy).maxQueuedMessages(messages).maxMessageLength(longest)
            .maxQueuedBytes((int)Math.max(bytes, longest));
    }

    private WsFeedServer(final Reactor reactor, final int port, final TcpConfig tcp, final Settings settings,
        final PrintStream out, final Router.Builder routes)
    {
        this.reactor = reactor;
        this.lag = new LagLog(reactor, out, "ws-feed");
        this.fanout = new Fanout(settings.outbound(), lag);
        this.schedule = new FeedSchedule(reactor, fanout, settings.rate(), settings.size(), settings.tickMillis());
        final WebSocketUpgrade feed = new WebSocketUpgrade(new WebSocketConfig(),
            () -> fanout.handler(new FeedClient(schedule)));
        final HttpHandler handler = routes == null ? feed : routes.notFound(feed).build();
        // An outbox needs a full write buffer to refuse a write, not to close the connection. A client sends one
        // request, the upgrade, with no body: one response slot and a read buffer sized for that head suffice.
        this.http = new HttpServer(reactor, port, new HttpServerConfig()
            .tcp(tcp.copy().disconnectOnFullWriteBuffer(false)
                .writeBufferSize(Math.max(WRITE_BUFFER, settings.outbound().maxMessageLength() + FRAME_OVERHEAD)))
            .maxRequestLineLength(4 * 1024).maxHeaderSectionSize(8 * 1024).maxHeldBodySize(1024)
            .maxChunkLineLength(1024).maxPipelinedRequests(1).readBufferSize(READ_BUFFER), handler);
    }

    /**
     * Opens the server and starts its feed.
     *
     * @param reactor  the reactor, running.
     * @param port     the port, 0 for any.
     * @param tcp      where to listen, TLS, socket buffers; the server sizes its connections' read and write
     *                 buffers itself (16 KiB each).
     * @param settings the feed.
     * @param out      where the lag lines go.
     * @return the open server.
     */
    public static WsFeedServer open(final Reactor reactor, final int port, final TcpConfig tcp,
        final Settings settings, final PrintStream out)
    {
        return open(reactor, port, tcp, settings, out, null);
    }

    /**
     * Opens the server with other routes in front of the feed, on the same connections' settings: a benchmark's
     * echo, say, whose clients then cost what a feed client costs less the feed.
     *
     * @param reactor  the reactor, running.
     * @param port     the port, 0 for any.
     * @param tcp      where to listen, TLS, socket buffers.
     * @param settings the feed.
     * @param out      where the lag lines go.
     * @param routes   tried first; a request that none of them takes upgrades to the feed. Null for none.
     * @return the open server.
     */
    public static WsFeedServer open(final Reactor reactor, final int port, final TcpConfig tcp,
        final Settings settings, final PrintStream out, final Router.Builder routes)
    {
        final WsFeedServer server = new WsFeedServer(reactor, port, tcp, settings, out, routes);
        server.http.open();
        reactor.call(() ->
        {
            server.schedule.start();
            server.lag.start(server.fanout);
        });
        return server;
    }

    /**
     * Where it listens.
     *
     * @return the address.
     */
    public InetSocketAddress localAddress()
    {
        return http.localAddress();
    }

    /**
     * Stops the feed and closes the server; any thread.
     */
    public void close()
    {
        reactor.call(() ->
        {
            schedule.stop();
            lag.stop();
        });
        http.close();
    }

    /**
     * Reactor thread: messages sent or queued so far.
     *
     * @return the count.
     */
    public long offered()
    {
        return schedule.offered();
    }

    /**
     * Reactor thread: messages lost so far to the policy (dropped, refused, or discarded on a close).
     *
     * @return the count.
     */
    public long dropped()
    {
        return fanout.dropped();
    }

    /**
     * Reactor thread: the clients on the feed.
     *
     * @return the count.
     */
    public int clients()
    {
        return schedule.clients();
    }

    /**
     * Reactor thread: a client's outbox.
     *
     * @param index from 0 to {@link #clients()}, exclusive.
     * @return the outbox.
     */
    Outbox client(final int index)
    {
        return schedule.outbox(index);
    }

    /**
     * Reactor thread: the clients whose outbox holds messages.
     *
     * @return the count.
     */
    public int lagging()
    {
        return fanout.laggingClients();
    }
}
