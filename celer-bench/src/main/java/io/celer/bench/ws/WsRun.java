package io.celer.bench.ws;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.sun.management.UnixOperatingSystemMXBean;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.NativeTransport;
import io.celer.bench.harness.Netty42;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.ProcessPair;
import io.celer.bench.harness.ProgressBar;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.SideStats;
import io.celer.bench.harness.Sides;
import io.celer.bench.peer.server.ReactorIdle;
import io.celer.bench.ws.peer.FeedLoadClient;

/**
 * Runs {@code bench ws}: every scenario of every peer, round by round, each a server process and the load client
 * process, pinned apart; the median round of each by the fast clients' p99 goes to the report.
 *
 * @param settings what to run.
 * @param out      where the report goes.
 * @param err      where progress and failures go.
 */
record WsRun(WsSettings settings, PrintStream out, PrintStream err)
{
    /** Time to connect and wind down, beyond the warm-up and the measure. */
    private static final Duration SLACK = Duration.ofSeconds(120);
    /** Files a JVM opens besides its sockets: jars, pipes, the selector's. */
    private static final int FD_HEADROOM = 200;

    /**
     * Runs every round, prints the report and writes the files.
     *
     * @return 0 when every run completed, 1 otherwise.
     */
    int run()
    {
        final long descriptors = descriptorLimit();
        // The client holds a socket per client and the server one more; the children inherit this process's limit.
        if (descriptors > 0 && descriptors < settings.clients() + FD_HEADROOM)
        {
            err.println("[bench] " + settings.clients() + " clients need more open files than the limit of " +
                descriptors + ": raise it (ulimit -n) or run fewer --clients");
            return 1;
        }
        final PeerLauncher launcher = settings.launcher();
        out.printf("WebSocket feed: %s; %,d clients (%d%% slow, %d ms pause per read), %,d msgs/s of %d bytes to each, "
                + "%d + %d s, %d round(s), %d server reactor(s)%n", Peer.ids(settings.peers()), settings.clients(),
            settings.slowPercent(), settings.slowPauseMillis(), settings.rate(), settings.size(),
            settings.warmupSeconds(), settings.seconds(), settings.rounds(), launcher.cpus().servers());
        launcher.printSetup(out, "Pinning", launcher.cpus().note());
        try (RunContext run = RunContext.start(out, err))
        {
            final long unitsPerRun = (settings.warmupSeconds() + settings.seconds()) * 1000L;
            final Rounds<WsSettings.Contender, WsRound> rounds = Rounds.run(settings.contenders(), settings.rounds(),
                WsSettings.Contender::id, unitsPerRun, err,
                (contender, round, progress) -> runOnce(contender, round, run.work(), progress));
            final List<WsRound> medians = rounds.entries(WsRun::median);
            final List<WsResult.Entry> entries = new ArrayList<>();
            for (final WsRound median : medians)
            {
                entries.add(WsReport.entry(median, rounds.of(median.contender()).size(), launcher));
            }
            return run.finish(WsReport.report(settings, run.result("ws-feed", WsReport.settings(settings, entries),
                entries, rounds.failures()), entries), settings.outDir());
        }
    }

    private WsRound runOnce(final WsSettings.Contender contender, final int round, final Path work,
        final ProgressBar progress)
    {
        final String name = contender.peer().id() + "-" + contender.scenario().id() + "-" + round;
        final Path samples = work.resolve(name + ".samples");
        final Path clientFile = work.resolve(name + ".feed");
        final Duration limit = Duration.ofSeconds(settings.warmupSeconds() + settings.seconds()).plus(SLACK);
        final PeerLauncher launcher = settings.launcher();
        final CpuPlan cpus = launcher.cpus();
        final WsPeer peer = contender.peer();
        final Map<String, Object> serverArgs = new LinkedHashMap<>();
        serverArgs.put("rate", settings.rate());
        serverArgs.put("size", settings.size());
        serverArgs.put("backpressure", contender.scenario().backpressure() ? "on" : "off");
        serverArgs.put("per-second", false);
        serverArgs.put("samples", samples);
        serverArgs.put("rss-cap-mb", settings.rssCapMb());
        serverArgs.put("exit-when-idle", true);
        if (peer.isCeler())
        {
            serverArgs.put("queue", settings.queue());
            serverArgs.put("idle", peer == WsPeer.CELER_SPIN ? ReactorIdle.YIELD.id() : settings.celerIdle());
        }
        final List<String> server = launcher.server(peer, peer.server(), serverArgs);
        final Sides<SideStats> stats = ProcessPair.run(name, work, server, (port, progressFile) ->
        {
            final Map<String, Object> args = new LinkedHashMap<>();
            args.put("port", port);
            args.put("clients", settings.clients());
            args.put("slow-percent", contender.scenario().slowClients() ? settings.slowPercent() : 0);
            args.put("slow-pause-ms", settings.slowPauseMillis());
            args.put("slow-read-bytes", settings.slowReadBytes());
            args.put("warmup-seconds", settings.warmupSeconds());
            args.put("seconds", settings.seconds());
            args.put("out", clientFile);
            args.put("progress", progressFile);
            args.put("max-seconds", ProcessPair.maxSeconds(limit));
            // The same load client for every Celer server, and for every Netty server: on NIO, on the harness's
            // class path, whatever transport and Netty line the server runs on.
            final WsPeer client = NativeTransport.uses(peer) ? WsPeer.CELER : Netty42.uses(peer) ? WsPeer.NETTY : peer;
            return launcher.java(client, FeedLoadClient.class.getName(), cpus.clientCpu(), args);
        }, progress, limit);
        final WsRound result = WsRound.read(contender, round, stats, clientFile, samples);
        if (result.latency().getTotalCount() == 0 && !result.server().capped())
        {
            throw new BenchException(contender.id() + ": the fast clients got nothing while measuring");
        }
        return result;
    }

    /**
     * This process's limit of open files, which its children inherit.
     *
     * @return the limit, or -1 where the JVM does not say.
     */
    static long descriptorLimit()
    {
        return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
            ? unix.getMaxFileDescriptorCount() : -1;
    }

    private static WsRound median(final List<WsRound> rounds)
    {
        final List<WsRound> sorted = new ArrayList<>(rounds);
        sorted.sort(Comparator.comparingLong(r -> r.latency().getValueAtPercentile(99)));
        return sorted.get((sorted.size() - 1) / 2);
    }
}
