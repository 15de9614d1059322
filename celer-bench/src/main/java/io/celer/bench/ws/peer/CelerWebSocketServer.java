package io.celer.bench.ws.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;


import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.bench.peer.server.ReactorIdle;
import io.celer.examples.wsfeed.WsFeedServer;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.ReactorGroup;
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
 * Celer's feed server, the ws-feed demo's {@link WsFeedServer}, on one reactor or a group of {@code --loops}, each
 * feeding the clients it accepted: each client is offered
 * {@code --rate} messages a second through a bounded outbox that drops its oldest message when full
 * ({@code --backpressure=on}, {@code --queue} messages or {@code --queue-bytes}, whichever comes first), or
 * through an outbox bounded only by a client's gigabyte ({@code --backpressure=off}), which lets a slow client's
 * backlog grow until the RSS cap stops the process. {@code /echo} echoes instead ({@link EchoSocket}), on the
 * feed's connection settings and the WebSocket defaults, as Netty's and Vert.x's peers do.
 */
@Command(name = "celer-ws", mixinStandardHelpOptions = true,
    description = "WebSocket peer: Celer's ws-feed server on one reactor or several, back-pressured through "
        + "per-client outboxes.")
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

    @Option(names = "--idle", defaultValue = "select",
        description = "The reactor between ticks: select (waits in the selector until a tick or a socket is due), "
            + "spin, yield, or backoff (spins, yields, then parks up to 100 us).")
    String idle;

    private ReactorGroup group;
    private WsFeedServer feed;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --loops=L --cpus=LIST --rate=R --size=B --backpressure=on|off --queue=Q --samples=F
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
        final int loops = options.loops();
        // The feed's work comes from a timer, every millisecond: a reactor that spins between ticks gains nothing
        // and, on a machine whose two CPUs it shares with the client, its own JIT, GC and sampler threads and
        // everything else running, holds a CPU that those then take from it a scheduler slice at a time.
        final ReactorIdle mode = ReactorIdle.of(idle);
        group = new ReactorGroup(loops, i -> mode.applyTo(new ReactorConfig()
            .name(loops == 1 ? "celer-ws-feed" : "celer-ws-feed-" + i).cpu(options.cpuOf(i)))).start();
        feed = WsFeedServer.open(group, options.port(),
            new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(feedOptions.sendBuffer),
            new WsFeedServer.Settings(feedOptions.rate, feedOptions.size, outbound, feedOptions.tickMillis),
            System.out, reactor -> Router.builder()
                .get("/echo", new WebSocketUpgrade(new WebSocketConfig(), new EchoSocket())));
        final AtomicLongArray published = new AtomicLongArray(loops);
        final List<LoopProbe.Loop> probed = new ArrayList<>();
        for (int i = 0; i < loops; i++)
        {
            final Watch watch = new Watch(group.reactor(i), i, published);
            group.reactor(i).call(() -> watch.reactor.schedule(PUBLISH_MILLIS, watch));
            probed.add(new LoopProbe.Loop(watch.reactor::execute, () -> feed.offeredOn(watch.index))
                .onBegin(watch::mark)
                .count("dropped", () -> feed.droppedOn(watch.index) - watch.droppedAtMark)
                .count("clients", () -> feed.clientsOn(watch.index))
                .count("peak_clients", () -> watch.peakClients)
                .count("connections", () -> feed.connectionsOn(watch.index)));
        }
        ProcessSampler.start(feedOptions, () ->
        {
            long clients = 0;
            for (int i = 0; i < loops; i++)
            {
                clients += published.get(i);
            }
            return clients;
        });
        return new Serving(feed.localAddress().getPort(), new LoopProbe(probed));
    }

    /**
     * One reactor's timer: every {@link #PUBLISH_MILLIS} it publishes the reactor's clients for the sampler and
     * notes the most it held since the mark; on that reactor's thread.
     */
    private final class Watch implements TimerCallback
    {
        private final Reactor reactor;
        private final int index;
        private final AtomicLongArray published;
        private long droppedAtMark;
        private long peakClients;

        Watch(final Reactor reactor, final int index, final AtomicLongArray published)
        {
            this.reactor = reactor;
            this.index = index;
            this.published = published;
        }

        @Override
        public void onTimer(final long timerId, final long nowMillis)
        {
            final int clients = feed.clientsOn(index);
            peakClients = Math.max(peakClients, clients);
            published.lazySet(index, clients);
            reactor.schedule(PUBLISH_MILLIS, this);
        }

        void mark()
        {
            droppedAtMark = feed.droppedOn(index);
            peakClients = feed.clientsOn(index);
        }
    }

    @Override
    public void stop()
    {
        feed.close();
        group.stop();
    }
}
