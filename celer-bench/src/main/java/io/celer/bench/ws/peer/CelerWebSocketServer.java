package io.celer.bench.ws.peer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.examples.wsfeed.WsFeedServer;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.TimerCallback;
import io.celer.tcp.TcpConfig;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.outbound.OutboundConfig;
import io.celer.websocket.outbound.OverflowPolicy;
import io.celer.websocket.server.WebSocketUpgrade;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Celer's feed server, the ws-feed demo's {@link WsFeedServer}, on one reactor: each client is offered
 * {@code --rate} messages a second through a bounded outbox that drops its oldest message when full
 * ({@code --backpressure=on}, {@code --queue} messages or {@code --queue-bytes}, whichever comes first), or
 * through an outbox bounded only by a client's gigabyte ({@code --backpressure=off}), which lets a slow client's
 * backlog grow until the RSS cap stops the process. {@code /echo} echoes instead ({@link EchoSocket}), on the
 * feed's connection settings and the WebSocket defaults, as Netty's and Vert.x's peers do.
 */
@Command(name = "celer-ws", mixinStandardHelpOptions = true,
    description = "WebSocket peer: Celer's ws-feed server, back-pressured through per-client outboxes.")
public final class CelerWebSocketServer implements PeerServer
{
    /** Messages an outbox holds with back-pressure off: more than any run produces for a client. */
    static final int UNBOUNDED_MESSAGES = 1 << 26;
    private static final long PUBLISH_MILLIS = 100;

    @Mixin
    PeerOptions options = new PeerOptions();

    @Mixin
    FeedOptions feedOptions = new FeedOptions();

    @Option(names = "--queue", defaultValue = "" + WsFeedServer.DEFAULT_QUEUED_MESSAGES,
        description = "Messages a client's outbox holds with back-pressure on.")
    int queue;

    @Option(names = "--queue-bytes", defaultValue = "" + WsFeedServer.DEFAULT_QUEUED_BYTES,
        description = "Payload bytes a client's outbox holds with back-pressure on, whichever of this and --queue "
            + "comes first.")
    int queueBytes;

    @Option(names = "--idle", defaultValue = "backoff",
        description = "The reactor between ticks: spin, yield, or backoff (spins, yields, then parks up to 100 us).")
    String idle;

    private Reactor reactor;
    private WsFeedServer feed;
    private long droppedAtMark;
    /** Written on the reactor every {@link #PUBLISH_MILLIS}, read by the sampler. */
    private volatile long clients;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --rate=R --size=B --backpressure=on|off --queue=Q --samples=F
     *             --rss-cap-mb=M --exit-when-idle}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new CelerWebSocketServer(), args);
    }

    @Override
    public Serving start()
    {
        final OutboundConfig outbound = feedOptions.dropWhenUnwritable() ?
            WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, queue, queueBytes, feedOptions.size) :
            WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, UNBOUNDED_MESSAGES, feedOptions.size);
        reactor = new Reactor(new ReactorConfig().name("celer-ws-feed").cpu(options.cpu())
            .idleStrategy(idleStrategy(idle))).start();
        final WebSocketUpgrade echo = new WebSocketUpgrade(new WebSocketConfig(), new EchoSocket());
        feed = WsFeedServer.open(reactor, options.port(),
            new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(feedOptions.sendBuffer),
            new WsFeedServer.Settings(feedOptions.rate, feedOptions.size, outbound, feedOptions.tickMillis),
            System.out, Router.builder().get("/echo", echo));
        final TimerCallback publish = new TimerCallback()
        {
            @Override
            public void onTimer(final long timerId, final long nowMillis)
            {
                clients = feed.clients();
                reactor.schedule(PUBLISH_MILLIS, this);
            }
        };
        reactor.call(() -> reactor.schedule(PUBLISH_MILLIS, publish));
        ProcessSampler.start(feedOptions, () -> clients);
        final LoopProbe probe = new LoopProbe(reactor::execute, feed::offered, () -> droppedAtMark = feed.dropped(),
            () -> " dropped=" + (feed.dropped() - droppedAtMark) + " clients=" + feed.clients());
        return new Serving(feed.localAddress().getPort(), probe);
    }

    /**
     * The reactor's idle strategy by name. The feed's work comes from a timer, every millisecond: a reactor that
     * spins between ticks gains nothing and, on a machine whose two CPUs it shares with the client, its own JIT, GC
     * and sampler threads and everything else running, holds a whole CPU that those then take from it (or from
     * the client) a scheduler slice at a time. Parking for at most 100 us delays a tick or a slow client's drain
     * by as much, and the messages' latency not at all: each is stamped when it is generated.
     */
    static IdleStrategy idleStrategy(final String name)
    {
        switch (name)
        {
            case "spin":
                return new BusySpinIdleStrategy();
            case "yield":
                return new YieldingIdleStrategy();
            case "backoff":
                return new BackoffIdleStrategy(100, 10, 1_000, 100_000);
            default:
                throw new IllegalArgumentException("--idle is spin, yield or backoff, not " + name);
        }
    }

    @Override
    public void stop()
    {
        feed.close();
        reactor.stop();
    }
}
