package io.celer.bench.latency;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.celer.bench.harness.BenchCertificates;
import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CPeerBinary;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.HistogramFiles;
import io.celer.bench.harness.LatencySummary;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.PercentilePlot;
import io.celer.bench.harness.ProcessPair;
import io.celer.bench.harness.ProgressBar;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.SideFacts;
import io.celer.bench.harness.SideStats;
import io.celer.bench.harness.Sides;
import io.celer.bench.peer.PingSession;

/**
 * The round-trip latency benchmark, over TCP or UDP: each peer's server and client in their own processes, the
 * peers taking turns round by round, the median round of each reported.
 *
 * @param settings what to run; every peer must support its protocol (and TLS, if asked).
 * @param out      where the report goes.
 * @param err      where progress and failures go.
 */
record LatencyRun(RunSettings settings, PrintStream out, PrintStream err)
{
    /**
     * Runs every round of every peer, prints the report and writes the result files.
     *
     * @return 0 when every peer completed, 1 otherwise.
     */
    int run()
    {
        final PeerLauncher launcher = settings.launcher();
        out.printf("%s round-trip latency: %s; %,d warm-up + %,d measured messages of %d bytes, %d round(s)%n",
            LatencyReport.title(settings), Peer.ids(settings.peers()), settings.warmup(), settings.messages(),
            settings.size(), settings.rounds());
        launcher.printSetup(out, "Pinning", launcher.cpus().note());
        if (settings.peers().contains(LatencyPeer.C))
        {
            CPeerBinary.build();
        }
        try (RunContext run = RunContext.start(out, err))
        {
            final Rounds<LatencyPeer, PeerRound> rounds;
            try
            {
                final BenchCertificates certificates = settings.tls() ? BenchCertificates.make(run.work()) : null;
                rounds = Rounds.run(settings.peers(), settings.rounds(), LatencyPeer::id,
                    (long)settings.warmup() + settings.messages(), err,
                    (peer, round, progress) -> runOnce(peer, round, run.work(), certificates, progress));
            }
            catch (final BenchException ex)
            {
                err.println("[bench] " + ex.getMessage());
                return 1;
            }
            final List<PeerRound> medians = rounds.entries(LatencyRun::median);
            final List<LatencyResult.PeerEntry> entries = new ArrayList<>();
            final List<PercentilePlot.Line> lines = new ArrayList<>();
            for (final PeerRound median : medians)
            {
                entries.add(entry(median, rounds.of(median.peer())));
                lines.add(new PercentilePlot.Line(median.peer().id(), median.histogram()));
            }
            out.println();
            for (final LatencyResult.PeerEntry entry : entries)
            {
                out.println(LatencyReport.coralTable(entry, settings.rounds()));
            }
            out.println(LatencyReport.legend(settings.protocol(), settings.tls()));
            return run.finish(LatencyReport.report(settings, run.result(settings.protocol().benchmark(),
                LatencyReport.settings(settings), entries, rounds.failures()), lines), settings.outDir());
        }
    }

    private PeerRound runOnce(final LatencyPeer peer, final int round, final Path work,
        final BenchCertificates certificates, final ProgressBar progress)
    {
        final Path histogramFile = work.resolve(peer.id() + "-" + round + ".rtt");
        // Generous, yet bounded: a minute to start plus a millisecond per message.
        final Duration limit = Duration.ofSeconds(60).plusMillis((long)settings.warmup() + settings.messages());
        final long maxSeconds = ProcessPair.maxSeconds(limit);
        final PeerLauncher launcher = settings.launcher();
        final CpuPlan cpus = launcher.cpus();
        final int dropEvery = settings.dropEvery();

        final LatencyPeer.Roles roles = peer.latency(settings.protocol());
        final String cMode = settings.protocol() == Protocol.TCP ? "" : settings.protocol().id() + "-";
        final Map<String, Object> serverArgs = new LinkedHashMap<>();
        serverArgs.put("size", settings.size());
        serverArgs.put("max-seconds", maxSeconds);
        if (dropEvery > 0)
        {
            serverArgs.put("drop-every", dropEvery);
        }
        if (certificates != null)
        {
            serverArgs.put("keystore", certificates.keyStore());
            serverArgs.put("store-password", certificates.password());
        }
        final List<String> serverCommand = peer.isJava()
            ? launcher.java(peer, roles.server(), cpus.serverCpu(), serverArgs)
            : dropEvery > 0
                ? launcher.c(cpus.serverCpu(), cMode + "server", settings.size(), maxSeconds, dropEvery)
                : launcher.c(cpus.serverCpu(), cMode + "server", settings.size(), maxSeconds);
        final Sides<SideStats> stats = ProcessPair.run(peer.id(), work, serverCommand, (port, progressFile) ->
        {
            final Map<String, Object> args = ProcessPair.clientArgs(port, settings.messages(), settings.size(),
                progressFile, maxSeconds);
            args.put("warmup", settings.warmup());
            args.put("histogram", histogramFile);
            if (certificates != null)
            {
                args.put("truststore", certificates.trustStore());
                args.put("store-password", certificates.password());
            }
            return peer.isJava()
                ? launcher.java(peer, roles.client(), cpus.clientCpu(), args)
                : launcher.c(cpus.clientCpu(), cMode + "client", port, settings.warmup(), settings.messages(),
                    settings.size(), histogramFile, progressFile, maxSeconds);
        }, progress, limit);
        final Histogram histogram = peer.isJava() ? HistogramFiles.read(histogramFile) : readRaw(histogramFile);
        check(peer, histogram, stats.client(), stats.server());
        return new PeerRound(peer, round, histogram, LatencySummary.of(histogram), stats);
    }

    private void check(final Peer peer, final Histogram histogram, final SideStats client, final SideStats server)
    {
        final long expected = settings.messages();
        final long lost = client.lost() == null ? 0 : client.lost();
        // Over UDP the server also counts requests whose echo was lost, and the client sent those again.
        final boolean serverCountOk = settings.protocol().lossy()
            ? server.messages() >= expected && server.messages() <= expected + lost
            : server.messages() == expected;
        if (histogram.getTotalCount() != expected || client.messages() != expected || !serverCountOk)
        {
            throw new BenchException(peer.id() + " measured " + histogram.getTotalCount() + " round trips (client "
                + "says " + client.messages() + ", server " + server.messages() + ", lost " + lost + "), expected "
                + expected);
        }
    }

    private static Histogram readRaw(final Path file)
    {
        final ByteBuffer raw;
        try
        {
            raw = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        final Histogram histogram = new Histogram(PingSession.HIGHEST_TRACKABLE_NANOS, 3);
        while (raw.remaining() >= Long.BYTES)
        {
            histogram.recordValue(Math.min(PingSession.HIGHEST_TRACKABLE_NANOS, Math.max(1, raw.getLong())));
        }
        return histogram;
    }

    private static PeerRound median(final List<PeerRound> rounds)
    {
        final List<PeerRound> sorted = new ArrayList<>(rounds);
        sorted.sort(Comparator.comparingLong(r -> r.summary().p99()));
        return sorted.get((sorted.size() - 1) / 2);
    }

    private LatencyResult.PeerEntry entry(final PeerRound median, final List<PeerRound> all)
    {
        final LatencySummary s = median.summary();
        final List<LatencyResult.Tier> tiers = new ArrayList<>();
        for (final LatencySummary.Tier tier : s.tiers())
        {
            tiers.add(new LatencyResult.Tier(tier.percentile(), tier.avg(), tier.max()));
        }
        final List<LatencyResult.Round> roundList = new ArrayList<>();
        for (final PeerRound r : all)
        {
            roundList.add(new LatencyResult.Round(r.round(), r.summary().p50(), r.summary().p99(),
                r.summary().p9999(), r.summary().max()));
        }
        final LatencyPeer peer = median.peer();
        final String description = peer.latency(settings.protocol()).description()
            + (settings.tls() ? ", TLS 1.3 (" + peer.tlsDescription() + ")" : "");
        return new LatencyResult.PeerEntry(peer.id(), description, settings.tls(), s.count(), settings.size(),
            median.round(), s.avg(), s.min(), s.p50(), s.p90(), s.p99(), s.p999(), s.p9999(), s.p99999(), s.max(),
            tiers, SideFacts.of(settings.launcher(), peer, median.stats()), roundList,
            settings.protocol().lossy() ? median.stats().client().lost() : null);
    }
}
