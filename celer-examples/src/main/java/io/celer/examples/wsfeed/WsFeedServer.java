package io.celer.examples.wsfeed;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
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

    private final HttpServer http;
    /** Each reactor's feed: its clients, its producer timer, its lag log. */
    private final List<Shard> shards = new ArrayList<>();

    /** One reactor's part of the feed, used on its thread only. */
    private record Shard(Reactor reactor, LagLog lag, Fanout fanout, FeedSchedule schedule)
    {
    }

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

    private WsFeedServer(final Reactor reactor, final ReactorGroup group, final int port, final TcpConfig tcp,
        final Settings settings, final PrintStream out, final Function<Reactor, Router.Builder> routes)
    {
        // An outbox needs a full write buffer to refuse a write, not to close the connection. A client sends one
        // request, the upgrade, with no body: one response slot and a read buffer sized for that head suffice.
        final HttpServerConfig config = new HttpServerConfig()
            .tcp(tcp.copy().disconnectOnFullWriteBuffer(false)
                .writeBufferSize(Math.max(WRITE_BUFFER, settings.outbound().maxMessageLength() + FRAME_OVERHEAD)))
            .maxRequestLineLength(4 * 1024).maxHeaderSectionSize(8 * 1024).maxHeldBodySize(1024)
            .maxChunkLineLength(1024).maxPipelinedRequests(1).readBufferSize(READ_BUFFER);
        this.http = group == null
            ? new HttpServer(reactor, port, config, shardOn(reactor, "ws-feed", settings, out, routes))
            : new HttpServer(group, port, config, member -> shardOn(member,
                group.size() == 1 ? "ws-feed" : "ws-feed-" + shards.size(), settings, out, routes));
    }

    /** A reactor's feed, and the application that upgrades its clients to it. */
    private HttpHandler shardOn(final Reactor reactor, final String name, final Settings settings,
        final PrintStream out, final Function<Reactor, Router.Builder> routes)
    {
        final LagLog lag = new LagLog(reactor, out, name);
        final Fanout fanout = new Fanout(settings.outbound(), lag);
        final FeedSchedule schedule = new FeedSchedule(reactor, fanout, settings.rate(), settings.size(),
            settings.tickMillis());
        shards.add(new Shard(reactor, lag, fanout, schedule));
        final WebSocketUpgrade feed = new WebSocketUpgrade(new WebSocketConfig(),
            () -> fanout.handler(new FeedClient(schedule)));
        return routes == null ? feed : routes.apply(reactor).notFound(feed).build();
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
        return new WsFeedServer(reactor, null, port, tcp, settings, out, routes == null ? null : r -> routes)
            .start();
    }

    /**
     * Opens the server on every reactor of a group, each feeding the clients it accepted.
     *
     * @param group    the reactors, running.
     * @param port     the port, 0 for any.
     * @param tcp      where to listen, TLS, socket buffers.
     * @param settings the feed, per client whatever its reactor.
     * @param out      where the lag lines go.
     * @return the open server.
     */
    public static WsFeedServer open(final ReactorGroup group, final int port, final TcpConfig tcp,
        final Settings settings, final PrintStream out)
    {
        return open(group, port, tcp, settings, out, null);
    }

    /**
     * Opens the server on every reactor of a group with other routes in front of each reactor's feed.
     *
     * @param group    the reactors, running.
     * @param port     the port, 0 for any.
     * @param tcp      where to listen, TLS, socket buffers.
     * @param settings the feed, per client whatever its reactor.
     * @param out      where the lag lines go.
     * @param routes   makes each reactor's routes, tried first, so that their handlers' state stays on that
     *                 reactor's thread; a request that none of them takes upgrades to the feed. Null for none.
     * @return the open server.
     */
    public static WsFeedServer open(final ReactorGroup group, final int port, final TcpConfig tcp,
        final Settings settings, final PrintStream out, final Function<Reactor, Router.Builder> routes)
    {
        return new WsFeedServer(null, group, port, tcp, settings, out, routes).start();
    }

    private WsFeedServer start()
    {
        http.open();
        for (final Shard shard : shards)
        {
            shard.reactor().call(() ->
            {
                shard.schedule().start();
                shard.lag().start(shard.fanout());
            });
        }
        return this;
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
        for (final Shard shard : shards)
        {
            shard.reactor().call(() ->
            {
                shard.schedule().stop();
                shard.lag().stop();
            });
        }
        http.close();
    }

    /**
     * The reactors it serves from.
     *
     * @return 1 on one reactor, the group's size otherwise.
     */
    public int reactors()
    {
        return shards.size();
    }

    /**
     * The first reactor's thread: its messages sent or queued so far (all of a one-reactor server's).
     *
     * @return the count.
     */
    public long offered()
    {
        return offeredOn(0);
    }

    /**
     * One reactor's thread: its messages sent or queued so far.
     *
     * @param index the reactor's index in its group, 0 on one reactor.
     * @return the count.
     */
    public long offeredOn(final int index)
    {
        return shards.get(index).schedule().offered();
    }

    /**
     * The first reactor's thread: its messages lost so far to the policy (dropped, refused, or discarded on a
     * close).
     *
     * @return the count.
     */
    public long dropped()
    {
        return droppedOn(0);
    }

    /**
     * One reactor's thread: its messages lost so far to the policy.
     *
     * @param index the reactor's index in its group, 0 on one reactor.
     * @return the count.
     */
    public long droppedOn(final int index)
    {
        return shards.get(index).fanout().dropped();
    }

    /**
     * The first reactor's thread: its clients on the feed.
     *
     * @return the count.
     */
    public int clients()
    {
        return clientsOn(0);
    }

    /**
     * One reactor's open connections, on the feed, on the other routes or not yet upgraded; exact on its thread.
     *
     * @param index the reactor's index in its group, 0 on one reactor.
     * @return the count.
     */
    public int connectionsOn(final int index)
    {
        return http.connectionsOn(index);
    }

    /**
     * One reactor's thread: its clients on the feed.
     *
     * @param index the reactor's index in its group, 0 on one reactor.
     * @return the count.
     */
    public int clientsOn(final int index)
    {
        return shards.get(index).schedule().clients();
    }

    /**
     * The first reactor's thread: one of its clients' outbox.
     *
     * @param index from 0 to {@link #clients()}, exclusive.
     * @return the outbox.
     */
    Outbox client(final int index)
    {
        return shards.get(0).schedule().outbox(index);
    }

    /**
     * The first reactor's thread: its clients whose outbox holds messages.
     *
     * @return the count.
     */
    public int lagging()
    {
        return shards.get(0).fanout().laggingClients();
    }
}
