package io.celer.bench.throughput;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.PairResult;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.ProcessPair;
import io.celer.bench.harness.ProgressBar;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.SideStats;
import io.celer.bench.harness.Sides;

/**
 * The throughput benchmark: a client pushes messages as fast as its write buffer drains, the server counts
 * them; peers take turns round by round and the median round of each is reported.
 *
 * @param settings what to run.
 * @param out      where the report goes.
 * @param err      where progress and failures go.
 */
record ThroughputRun(Settings settings, PrintStream out, PrintStream err)
{
    /**
     * What a throughput run was asked to do.
     *
     * @param peers    the peers, in the order of the first round.
     * @param messages messages per run.
     * @param size     message size in bytes.
     * @param rounds   runs per peer.
     * @param launcher starts the children, placed and with the JVM options asked for.
     * @param outDir   where result files go.
     */
    record Settings(List<ThroughputPeer> peers, int messages, int size, int rounds, PeerLauncher launcher,
        Path outDir)
    {
    }

    /**
     * Runs every round of every peer, prints the table and writes the result files.
     *
     * @return 0 when every peer completed, 1 otherwise.
     */
    int run()
    {
        final PeerLauncher launcher = settings.launcher();
        out.printf("TCP throughput: %s; %,d messages of %d bytes, %d round(s)%n", Peer.ids(settings.peers()),
            settings.messages(), settings.size(), settings.rounds());
        launcher.printSetup(out, "Pinning", launcher.cpus().note());
        try (RunContext run = RunContext.start(out, err))
        {
            final Rounds<ThroughputPeer, PairResult<ThroughputPeer>> rounds = Rounds.run(settings.peers(),
                settings.rounds(), ThroughputPeer::id, settings.messages(), err,
                (peer, round, progress) -> runOnce(peer, round, run.work(), progress));
            final List<ThroughputReport.Entry> entries = rounds.entries(all -> ThroughputReport.entry(settings, all));
            return run.finish(ThroughputReport.report(settings, run.result("tcp-throughput",
                ThroughputReport.settings(settings), entries, rounds.failures())), settings.outDir());
        }
    }

    private PairResult<ThroughputPeer> runOnce(final ThroughputPeer peer, final int round, final Path work,
        final ProgressBar progress)
    {
        // A minute to start plus 100 microseconds a message: far beyond any transport that works.
        final Duration limit = Duration.ofSeconds(60).plusNanos(settings.messages() * 100_000L);
        final long maxSeconds = ProcessPair.maxSeconds(limit);
        final PeerLauncher launcher = settings.launcher();
        final CpuPlan cpus = launcher.cpus();
        final List<String> server = launcher.java(peer, peer.server(), cpus.serverCpu(),
            Map.of("size", settings.size(), "messages", settings.messages(), "max-seconds", maxSeconds));
        final Sides<SideStats> stats = ProcessPair.run(peer.id(), work, server, (port, progressFile) ->
        {
            return launcher.java(peer, peer.client(), cpus.clientCpu(),
                ProcessPair.clientArgs(port, settings.messages(), settings.size(), progressFile, maxSeconds));
        }, progress, limit);
        if (stats.server().messages() != settings.messages() || stats.server().nanos() == null
            || stats.client().nanos() == null)
        {
            throw new BenchException(peer.id() + " server received " + stats.server().messages()
                + " messages, expected " + settings.messages());
        }
        return new PairResult<>(peer, round, stats);
    }
}
