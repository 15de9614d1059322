package io.celer.bench.ws;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.harness.CommonOptions;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.ServerReactors;
import io.celer.bench.harness.UnrunnablePeers;

/**
 * {@code bench ws}: the back-pressured WebSocket feed under many clients, a tenth of them slow.
 */
@Command(name = "ws", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "A WebSocket feed on loopback: each server offers every client --rate numbered, time-stamped messages a "
            + "second; one Celer client process reads them on one reactor, --slow-percent of its clients with a "
            + "pause after each read. Each peer runs with back-pressure on, off (until --rss-cap-mb), and "
            + "without slow clients.",
        "Peers: celer, celer-spin (its reactors spin and yield), celer-epoll, celer-uring, netty, netty42-epoll, "
            + "netty42-uring (Netty 4.2), vertx; with --server-reactors N, each serves from N reactors or event "
            + "loops, each feeding the clients it accepted."})
public final class WsCommand implements Callable<Integer>
{
    /** Messages a second the feed offers in all, by default: the reactive WebSocket feed's load scaled to a small machine. */
    static final int DEFAULT_TOTAL_RATE = 50_000;

    @Option(names = "--peers", paramLabel = "PEERS", defaultValue = "celer,netty,vertx",
        description = "Comma-separated peers to run (default: ${DEFAULT-VALUE}).")
    private String peers;

    @Option(names = "--scenarios", paramLabel = "S", defaultValue = "bp-on,bp-off,no-slow",
        description = "Comma-separated scenarios: bp-on, bp-off, no-slow (default: ${DEFAULT-VALUE}).")
    private String scenarios;

    @Option(names = "--clients", paramLabel = "N", description = "Clients (default: 1,000; 100 with --quick).")
    private Integer clients;

    @Option(names = "--rate", paramLabel = "R",
        description = "Messages a second to each client (default: 50,000 divided by the clients).")
    private Integer rate;

    @Option(names = "--seconds", paramLabel = "S", description = "Measured seconds (default: 60; 10 with --quick).")
    private Integer seconds;

    @Option(names = "--warmup-seconds", paramLabel = "S",
        description = "Seconds after connecting before the measure (default: 10; 3 with --quick).")
    private Integer warmupSeconds;

    @Option(names = "--slow-percent", paramLabel = "P", defaultValue = "10",
        description = "Share of slow clients in scenarios with some (default: ${DEFAULT-VALUE}).")
    private int slowPercent;

    @Option(names = "--slow-pause-ms", paramLabel = "T", defaultValue = "200",
        description = "A slow client's pause after each read (default: ${DEFAULT-VALUE}).")
    private int slowPauseMillis;

    @Option(names = "--slow-read-bytes", paramLabel = "B", defaultValue = "2048",
        description = "A slow client's read buffer: what one read takes at most (default: ${DEFAULT-VALUE}).")
    private int slowReadBytes;

    @Option(names = "--queue", paramLabel = "N",
        description = "Messages a Celer outbox holds with back-pressure on (default: three seconds of a client's "
            + "feed, as the reactive WebSocket feed's 5,000 at 1,500 a second).")
    private Integer queue;

    @Option(names = "--celer-idle", paramLabel = "I", defaultValue = "select",
        description = "What the celer server's reactor does between ticks: select (waits in epoll_wait, as the "
            + "other servers do), spin, yield, or backoff (spins, yields, then parks up to 100 us); celer-spin always "
            + "yields (default: ${DEFAULT-VALUE}).")
    private String celerIdle;

    @Option(names = "--rss-cap-mb", paramLabel = "MB", defaultValue = "1024",
        description = "A server stops itself once its resident set passes this (default: ${DEFAULT-VALUE}).")
    private int rssCapMb;

    @Mixin
    private ServerReactors serverReactors;

    @Mixin
    private CommonOptions common;

    @Override
    public Integer call()
    {
        final WsSettings settings = common.settings(() ->
        {
            final int count = common.pick(clients, 100, 1000);
            final int perClient = rate != null ? rate : Math.max(1, DEFAULT_TOTAL_RATE / Math.max(1, count));
            final int size = common.size(250);
            common.validate(count, 0, size, 40, 65_536);
            final List<WsPeer> chosen = new ArrayList<>(Peer.parse(peers, WsPeer.values(), "peer"));
            UnrunnablePeers.drop(chosen, System.out);
            return new WsSettings(chosen, parseScenarios(scenarios), count,
                perClient, size, common.pick(seconds, 10, 60), common.pick(warmupSeconds, 3, 10), slowPercent,
                slowPauseMillis, slowReadBytes, queue != null ? queue : Math.max(1, 3 * perClient), celerIdle, rssCapMb,
                common.rounds(), common.launcher(serverReactors.count()), common.outDir());
        });
        return new WsRun(settings, System.out, System.err).run();
    }

    private static List<Scenario> parseScenarios(final String names)
    {
        final List<Scenario> chosen = new ArrayList<>();
        for (final String name : names.split(","))
        {
            Scenario found = null;
            for (final Scenario scenario : Scenario.values())
            {
                found = scenario.id().equals(name.trim()) ? scenario : found;
            }
            if (found == null)
            {
                throw new IllegalArgumentException("unknown scenario '" + name.trim() + "': bp-on, bp-off, no-slow");
            }
            if (!chosen.contains(found))
            {
                chosen.add(found);
            }
        }
        return chosen;
    }
}
