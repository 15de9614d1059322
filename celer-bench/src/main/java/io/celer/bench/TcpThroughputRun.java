package io.celer.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.celer.bench.peer.ProgressFile;

/**
 * The throughput benchmark: a client pushes messages as fast as its write buffer drains, the server counts
 * them; peers take turns round by round and the median round of each is reported.
 */
final class TcpThroughputRun
{
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(30);

    private final RunSettings settings;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * A run.
     *
     * @param settings what to run; every peer must have a throughput pair.
     * @param out      where the report goes.
     * @param err      where progress and failures go.
     */
    TcpThroughputRun(final RunSettings settings, final PrintStream out, final PrintStream err)
    {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs every round of every peer, prints the table and writes the result files.
     *
     * @return 0 when every peer completed, 1 otherwise.
     */
    int run()
    {
        final OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        final long startNanos = System.nanoTime();
        final CpuPlan cpus = CpuPlan.detect(settings.pin());
        final PeerLauncher launcher = new PeerLauncher(cpus, settings.jvmOptions(), settings.epsilon());
        out.printf("TCP throughput: %s; %,d messages of %d bytes, %d round(s)%n", Peer.ids(settings.peers()),
            settings.messages(), settings.size(), settings.rounds());
        out.println("Pinning: " + cpus.note());
        out.println("JDK: " + Runtimes.jdk() + "; child JVM options: " + launcher.jvmOptions(Peer.NETTY_NIO));
        out.flush();

        final Rounds<Peer, Result> rounds;
        final Path work = Runtimes.tempDirectory();
        try
        {
            rounds = Rounds.run(settings.peers(), settings.rounds(), Peer::id, settings.messages(), err,
                (peer, round, progress) -> runOnce(peer, round, launcher, work, progress));
        }
        finally
        {
            Runtimes.deleteRecursively(work);
        }

        final List<ThroughputReport.Entry> entries = new ArrayList<>();
        for (final Peer peer : settings.peers())
        {
            final List<Result> peerResults = rounds.of(peer);
            if (peerResults != null)
            {
                entries.add(entry(peerResults, launcher));
            }
        }
        final ThroughputReport report = new ThroughputReport("tcp-throughput", started.toString(),
            (System.nanoTime() - startNanos) / 1e9, Runtimes.jdk(), Runtimes.os(),
            Runtime.getRuntime().availableProcessors(), cpus.note(), settings.jvmOptions(), settings.epsilon(),
            settings.messages(), settings.size(), settings.rounds(), entries, rounds.failures());
        out.println();
        out.print(ThroughputReport.table(entries, false));
        if (!entries.isEmpty())
        {
            final ResultFiles.Written written = ResultFiles.writeTable(
                "throughput", settings.outDir(), started, report, ThroughputReport.markdown(report));
            out.println();
            out.println("Results: " + written.json() + ", " + written.markdown());
        }
        return rounds.reportFailures(out);
    }

    private record Result(Peer peer, int round, SideStats client, SideStats server)
    {
        double received()
        {
            return server.messages() * 1e9 / Math.max(1, server.nanos());
        }

        double sent()
        {
            return client.messages() * 1e9 / Math.max(1, client.nanos());
        }
    }

    private Result runOnce(final Peer peer, final int round, final PeerLauncher launcher, final Path work,
        final ProgressBar progress)
    {
        final Path progressFile = work.resolve(peer.id() + "-" + round + ".progress");
        final ProgressFile counter = ProgressFile.create(progressFile);
        // A minute to start plus 100 microseconds a message: far beyond any transport that works.
        final Duration limit = Duration.ofSeconds(60).plusNanos(settings.messages() * 100_000L);
        final long maxSeconds = limit.toSeconds() + 60;
        final CpuPlan cpus = launcher.cpus();
        final List<String> serverCommand = launcher.java(peer, peer.sinkServer(), cpus.serverCpu(),
            Map.of("size", settings.size(), "messages", settings.messages(), "max-seconds", maxSeconds));
        try (PeerProcess server = PeerProcess.start(peer.id() + " sink server", serverCommand))
        {
            final int port = Runtimes.port(server.awaitLine("'listening on port' line",
                line -> line.startsWith("listening on port "), LISTEN_TIMEOUT));
            final Map<String, Object> args = new LinkedHashMap<>();
            args.put("port", port);
            args.put("messages", settings.messages());
            args.put("size", settings.size());
            args.put("progress", progressFile);
            args.put("max-seconds", maxSeconds);
            try (PeerProcess client = PeerProcess.start(peer.id() + " batch client",
                launcher.java(peer, peer.batchClient(), cpus.clientCpu(), args)))
            {
                Runtimes.follow(client, counter, progress, limit, STALL_TIMEOUT);
                if (client.exitValue() != 0)
                {
                    throw client.failure("exited with status " + client.exitValue());
                }
                final SideStats clientStats = SideStats.parse(
                    client.awaitLine("stats line", line -> line.startsWith(SideStats.PREFIX), STATS_TIMEOUT));
                final SideStats serverStats = SideStats.parse(
                    server.awaitLine("stats line", line -> line.startsWith(SideStats.PREFIX), STATS_TIMEOUT));
                server.waitFor(Duration.ofSeconds(10));
                if (serverStats.messages() != settings.messages() || serverStats.nanos() == null
                    || clientStats.nanos() == null)
                {
                    throw new BenchException(peer.id() + " server received " + serverStats.messages()
                        + " messages, expected " + settings.messages());
                }
                return new Result(peer, round, clientStats, serverStats);
            }
        }
    }

    private ThroughputReport.Entry entry(final List<Result> all, final PeerLauncher launcher)
    {
        final List<Result> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingDouble(Result::received));
        final Result median = sorted.get((sorted.size() - 1) / 2);
        final List<ThroughputReport.Round> rounds = new ArrayList<>();
        for (final Result r : all)
        {
            rounds.add(new ThroughputReport.Round(r.round(), r.received()));
        }
        final Peer peer = median.peer();
        final CpuPlan cpus = launcher.cpus();
        return new ThroughputReport.Entry(peer.id(), peer.description(), median.server().messages(),
            settings.size(), median.round(), median.received(),
            median.received() * settings.size() / (1024.0 * 1024.0), median.sent(),
            new Sides<>(median.client().gcCount(), median.server().gcCount()),
            new Sides<>(median.client().allocatedPerMessage(), median.server().allocatedPerMessage()),
            cpus.pinned() ? new Sides<>(cpus.clientCpu(), cpus.serverCpu()) : null,
            median.client().jdk(), launcher.jvmOptions(peer), rounds);
    }
}
