package io.celer.bench.batching;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.PairResult;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.ProcessPair;
import io.celer.bench.harness.ProgressBar;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.SideFacts;
import io.celer.bench.harness.SideStats;
import io.celer.bench.harness.Sides;
import io.celer.bench.peer.BatchingSession;

/**
 * The batching benchmark: for each variant, a counting server and a client with its producer threads, in two
 * processes; variants take turns round by round and the median round of each is reported.
 *
 * <p>Placement on a small machine matters more than anything else here: the client's I/O thread gets a CPU of
 * its own, the rest of the client (its producers) runs on the other CPUs, and the server, pinned to the last
 * CPU, parks when it has nothing to read, leaving that CPU to the producers.
 *
 * @param settings what to run.
 * @param out      where the report goes.
 * @param err      where progress and failures go.
 */
record BatchingRun(Settings settings, PrintStream out, PrintStream err)
{
    /** The server every variant sends to: Celer's, counting length-prefixed messages. */
    private static final String SINK_SERVER = "io.celer.bench.peer.celer.CelerSinkServer";

    private static final Peer SERVER = new FixedPeer("celer", "Celer, busy-spin reactor, length framing", true,
        "select");

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
     * @param launcher   starts the children, placed and with the JVM options asked for.
     * @param outDir     where result files go.
     */
    record Settings(List<BatchingVariant> variants, int producers, int warmup, int messages, int size, int rounds,
        int socketBuffers, int stallMillis, PeerLauncher launcher, Path outDir)
    {
        long total()
        {
            return (long)warmup + messages;
        }
    }

    /**
     * Runs every round of every variant, prints the table and writes the result files.
     *
     * @return 0 when every variant completed, 1 otherwise.
     */
    int run()
    {
        final PeerLauncher launcher = settings.launcher();
        final String placement = placement(launcher.cpus());
        out.printf("TCP batching: %s; %d producer(s), %,d warm-up + %,d measured messages of %d bytes (+%d-byte "
            + "length), %d round(s)%n", Peer.ids(settings.variants()), settings.producers(),
            settings.warmup(), settings.messages(), settings.size(), BatchingSession.PREFIX, settings.rounds());
        launcher.printSetup(out, "Placement", placement);
        try (RunContext run = RunContext.start(out, err))
        {
            final Rounds<BatchingVariant, PairResult<BatchingVariant>> rounds = Rounds.run(settings.variants(),
                settings.rounds(), BatchingVariant::id, settings.total(), err,
                (variant, round, progress) -> runOnce(variant, round, run.work(), progress));
            final List<BatchingReport.Entry> entries = rounds.entries(this::entry);
            final BatchingReport json = new BatchingReport(placement, launcher.extraJvmOptions(), launcher.epsilon(),
                settings.producers(), settings.warmup(), settings.messages(), settings.size(),
                settings.size() + BatchingSession.PREFIX, settings.rounds(), BatchingReport.speedups(entries));
            return run.finish(BatchingReport.report(json, launcher,
                run.result("tcp-batching", json, entries, rounds.failures())), settings.outDir());
        }
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

    private PairResult<BatchingVariant> runOnce(final BatchingVariant variant, final int round, final Path work,
        final ProgressBar progress)
    {
        // A minute to start plus 50 microseconds a message: ten times what flushing each one costs here.
        final Duration limit = Duration.ofSeconds(60).plusNanos(settings.total() * 50_000L)
            .plusMillis(settings.stallMillis());
        final long maxSeconds = ProcessPair.maxSeconds(limit);
        final PeerLauncher launcher = settings.launcher();
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
        final List<String> server = launcher.java(SERVER, SINK_SERVER, cpus.serverCpu(), serverArgs);
        final Sides<SideStats> stats = ProcessPair.run(variant.id(), work, server, (port, progressFile) ->
        {
            final Map<String, Object> args = ProcessPair.clientArgs(port, settings.messages(), settings.size(),
                progressFile, maxSeconds);
            args.put("producers", settings.producers());
            args.put("warmup", settings.warmup());
            args.put("flush", variant.flush());
            args.put("sndbuf", settings.socketBuffers());
            return launcher.javaWithPinnedIoThread(variant, variant.client(), cpus.clientCpu(), args);
        }, progress, limit);
        check(variant, stats.client(), stats.server());
        return new PairResult<>(variant, round, stats);
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

    private BatchingReport.Entry entry(final List<PairResult<BatchingVariant>> all)
    {
        final PairResult<BatchingVariant> median = PairResult.median(all);
        final BatchingVariant variant = median.peer();
        final int frame = settings.size() + BatchingSession.PREFIX;
        final Long batches = median.client().number("batches");
        final Long waits = median.client().number("waits");
        final Long pauses = median.client().number("pauses");
        return new BatchingReport.Entry(variant.id(), variant.description(), median.server().messages(),
            settings.size(), median.round(), median.received(), median.received() * frame,
            median.received() * frame / (1024.0 * 1024.0), median.sent(),
            batches == null || batches == 0 ? 0 : (double)median.client().messages() / batches,
            waits == null ? 0 : waits, pauses == null ? 0 : pauses, median.client().number("published"),
            median.server().number("received"), SideFacts.of(settings.launcher(), variant, median.stats()),
            PairResult.rates(all));
    }
}
