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

import io.celer.bench.peer.BatchingSession;
import io.celer.bench.peer.ProgressFile;

/**
 * The batching benchmark: for each variant, a counting server and a client with its producer threads, in two
 * processes; variants take turns round by round and the median round of each is reported.
 *
 * <p>Placement on a small machine matters more than anything else here: the client's I/O thread gets a CPU of
 * its own, the rest of the client (its producers) runs on the other CPUs, and the server, pinned to the last
 * CPU, parks when it has nothing to read, leaving that CPU to the producers.
 */
final class BatchingRun
{
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What a batching run was asked to do.
     *
     * @param variants   the variants, in the order of the first round.
     * @param producers  application threads publishing.
     * @param warmup     messages not timed, before the measured ones.
     * @param messages   measured messages, from all producers together.
     * @param size       message size in bytes, before the 4-byte length.
     * @param rounds     runs per variant.
     * @param socketBuffers SO_SNDBUF of the client and SO_RCVBUF of the server.
     * @param stallMillis to test back-pressure, how long the server stops reading after the first message.
     * @param jvmOptions extra options for every child JVM.
     * @param epsilon    whether Celer's JVMs run under Epsilon.
     * @param pin        whether to pin when the machine allows.
     * @param outDir     where result files go.
     */
    record Settings(List<BatchingVariant> variants, int producers, int warmup, int messages, int size, int rounds,
        int socketBuffers, int stallMillis, List<String> jvmOptions, boolean epsilon, boolean pin, Path outDir)
    {
        long total()
        {
            return (long)warmup + messages;
        }
    }

    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * A run.
     *
     * @param settings what to run.
     * @param out      where the report goes.
     * @param err      where progress and failures go.
     */
    BatchingRun(final Settings settings, final PrintStream out, final PrintStream err)
    {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs every round of every variant, prints the table and writes the result files.
     *
     * @return 0 when every variant completed, 1 otherwise.
     */
    int run()
    {
        final OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        final long startNanos = System.nanoTime();
        final CpuPlan cpus = CpuPlan.detect(settings.pin());
        final PeerLauncher launcher = new PeerLauncher(cpus, settings.jvmOptions(), settings.epsilon());
        final String placement = placement(cpus);
        out.printf("TCP batching: %s; %d producer(s), %,d warm-up + %,d measured messages of %d bytes (+%d-byte "
            + "length), %d round(s)%n", BatchingVariant.ids(settings.variants()), settings.producers(),
            settings.warmup(), settings.messages(), settings.size(), BatchingSession.PREFIX, settings.rounds());
        out.println("Placement: " + placement);
        out.println("JDK: " + Runtimes.jdk() + "; child JVM options: " + launcher.jvmOptions(Peer.NETTY_NIO));
        out.flush();

        final Rounds<BatchingVariant, Result> rounds;
        final Path work = Runtimes.tempDirectory();
        try
        {
            rounds = Rounds.run(settings.variants(), settings.rounds(), BatchingVariant::id, settings.total(), err,
                (variant, round, progress) -> runOnce(variant, round, launcher, work, progress));
        }
        finally
        {
            Runtimes.deleteRecursively(work);
        }

        final List<BatchingReport.Entry> entries = new ArrayList<>();
        for (final BatchingVariant variant : settings.variants())
        {
            final List<Result> variantResults = rounds.of(variant);
            if (variantResults != null)
            {
                entries.add(entry(variantResults, launcher));
            }
        }
        final BatchingReport report = new BatchingReport("tcp-batching", started.toString(),
            (System.nanoTime() - startNanos) / 1e9, Runtimes.jdk(), Runtimes.os(),
            Runtime.getRuntime().availableProcessors(), placement, settings.jvmOptions(), settings.epsilon(),
            settings.producers(), settings.warmup(), settings.messages(), settings.size(),
            settings.size() + BatchingSession.PREFIX, settings.rounds(), entries, BatchingReport.speedups(entries),
            rounds.failures());
        out.println();
        out.print(BatchingReport.table(entries, false));
        out.println();
        out.print(BatchingReport.summary(report));
        if (!entries.isEmpty())
        {
            final ResultFiles.Written written = ResultFiles.writeTable(
                "batching", settings.outDir(), started, report, BatchingReport.markdown(report));
            out.println();
            out.println("Results: " + written.json() + ", " + written.markdown());
        }
        return rounds.reportFailures(out);
    }

    private static String placement(final CpuPlan cpus)
    {
        if (!cpus.pinned())
        {
            return cpus.note();
        }
        return "server pinned to CPU " + cpus.serverCpu() + " (taskset -c), parking when idle; client's I/O thread "
            + "pinned to CPU " + cpus.clientCpu() + ", the rest of the client (its producers) kept off that CPU";
    }

    private record Result(BatchingVariant variant, int round, SideStats client, SideStats server)
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

    private Result runOnce(final BatchingVariant variant, final int round, final PeerLauncher launcher,
        final Path work, final ProgressBar progress)
    {
        final Path progressFile = work.resolve(variant.id() + "-" + round + ".progress");
        final ProgressFile counter = ProgressFile.create(progressFile);
        // A minute to start plus 50 microseconds a message: ten times what flushing each one costs here.
        final Duration limit = Duration.ofSeconds(60).plusNanos(settings.total() * 50_000L)
            .plusMillis(settings.stallMillis());
        final long maxSeconds = limit.toSeconds() + 60;
        final CpuPlan cpus = launcher.cpus();
        final Map<String, Object> serverArgs = new LinkedHashMap<>();
        serverArgs.put("size", settings.size());
        serverArgs.put("warmup", settings.warmup());
        serverArgs.put("messages", settings.messages());
        serverArgs.put("framing", "length");
        serverArgs.put("idle", "backoff");
        serverArgs.put("rcvbuf", settings.socketBuffers());
        if (settings.stallMillis() > 0)
        {
            serverArgs.put("stall-ms", settings.stallMillis());
        }
        serverArgs.put("max-seconds", maxSeconds);
        try (PeerProcess server = PeerProcess.start(variant.id() + " server",
            launcher.java(Peer.CELER, Peer.CELER.sinkServer(), cpus.serverCpu(), serverArgs)))
        {
            final int port = Runtimes.port(server.awaitLine("'listening on port' line",
                line -> line.startsWith("listening on port "), LISTEN_TIMEOUT));
            final Map<String, Object> args = new LinkedHashMap<>();
            args.put("port", port);
            args.put("producers", settings.producers());
            args.put("warmup", settings.warmup());
            args.put("messages", settings.messages());
            args.put("size", settings.size());
            args.put("flush", variant.flush());
            args.put("sndbuf", settings.socketBuffers());
            args.put("progress", progressFile);
            args.put("max-seconds", maxSeconds);
            try (PeerProcess client = PeerProcess.start(variant.id() + " client",
                launcher.javaWithPinnedIoThread(variant.peer(), variant.client(), cpus.clientCpu(), args)))
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
                check(variant, clientStats, serverStats);
                return new Result(variant, round, clientStats, serverStats);
            }
        }
    }

    private void check(final BatchingVariant variant, final SideStats client, final SideStats server)
    {
        final long total = settings.total();
        final Long published = client.number("published");
        final Long received = server.number("received");
        final Long bytes = server.number("bytes");
        if (published == null || published != total || received == null || received.longValue() != published
            || bytes == null || bytes != total * settings.size() || client.nanos() == null || server.nanos() == null
            || server.messages() != settings.messages())
        {
            throw new BenchException(variant.id() + ": the server counted " + received + " messages and " + bytes
                + " bytes of the " + published + " published; expected " + total + " messages of "
                + settings.size() + " bytes");
        }
    }

    private BatchingReport.Entry entry(final List<Result> all, final PeerLauncher launcher)
    {
        final List<Result> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingDouble(Result::received));
        final Result median = sorted.get((sorted.size() - 1) / 2);
        final List<ThroughputReport.Round> rounds = new ArrayList<>();
        for (final Result r : all)
        {
            rounds.add(new ThroughputReport.Round(r.round(), r.received()));
        }
        final BatchingVariant variant = median.variant();
        final CpuPlan cpus = launcher.cpus();
        final int frame = settings.size() + BatchingSession.PREFIX;
        final Long batches = median.client().number("batches");
        final Long waits = median.client().number("waits");
        final Long pauses = median.client().number("pauses");
        return new BatchingReport.Entry(variant.id(), variant.description(), median.server().messages(),
            settings.size(), median.round(), median.received(), median.received() * frame,
            median.received() * frame / (1024.0 * 1024.0), median.sent(),
            batches == null || batches == 0 ? 0 : (double)median.client().messages() / batches,
            waits == null ? 0 : waits, pauses == null ? 0 : pauses, median.client().number("published"),
            median.server().number("received"),
            new Sides<>(median.client().gcCount(), median.server().gcCount()),
            new Sides<>(median.client().allocatedPerMessage(), median.server().allocatedPerMessage()),
            cpus.pinned() ? new Sides<>(cpus.clientCpu(), cpus.serverCpu()) : null,
            median.client().jdk(), launcher.jvmOptions(variant.peer()), rounds);
    }
}
