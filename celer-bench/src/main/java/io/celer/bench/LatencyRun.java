package io.celer.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

import io.celer.bench.peer.PingSession;
import io.celer.bench.peer.ProgressFile;

/**
 * The round-trip latency benchmark, over TCP or UDP: each peer's server and client in their own processes, the
 * peers taking turns round by round, the median round of each reported.
 */
final class LatencyRun
{
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(15);

    private final Protocol protocol;
    private final boolean tls;
    private final RunSettings settings;
    private final int dropEvery;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * A run.
     *
     * @param protocol what the peers talk over; every peer must support it.
     * @param tls       TCP only: whether over TLS; every peer must support it.
     * @param settings  what to run.
     * @param dropEvery UDP only, to test the clients' resending: the servers leave every n-th datagram without
     *                  an echo; 0 for none.
     * @param out       where the report goes.
     * @param err       where progress and failures go.
     */
    LatencyRun(final Protocol protocol, final boolean tls, final RunSettings settings, final int dropEvery,
        final PrintStream out, final PrintStream err)
    {
        this.protocol = protocol;
        this.tls = tls;
        this.settings = settings;
        this.dropEvery = dropEvery;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs every round of every peer, prints the report and writes the result files.
     *
     * @return 0 when every peer completed, 1 otherwise.
     */
    int run()
    {
        final OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        final long startNanos = System.nanoTime();
        final CpuPlan cpus = CpuPlan.detect(settings.pin());
        final PeerLauncher launcher = new PeerLauncher(cpus, settings.jvmOptions(), settings.epsilon());
        out.printf("%s round-trip latency: %s; %,d warm-up + %,d measured messages of %d bytes, %d round(s)%n",
            title(), Peer.ids(settings.peers()), settings.warmup(), settings.messages(), settings.size(),
            settings.rounds());
        out.println("Pinning: " + cpus.note());
        out.println("JDK: " + Runtimes.jdk() + "; child JVM options: " + launcher.jvmOptions(Peer.NETTY_NIO));
        out.flush();
        if (settings.peers().contains(Peer.C))
        {
            CPeerBinary.build();
        }

        final Rounds<Peer, PeerRound> rounds;
        final Path work = Runtimes.tempDirectory();
        try
        {
            final BenchCertificates certificates = tls ? BenchCertificates.make(work) : null;
            rounds = Rounds.run(settings.peers(), settings.rounds(), Peer::id,
                (long)settings.warmup() + settings.messages(), err,
                (peer, round, progress) -> runOnce(peer, round, launcher, work, certificates, progress));
        }
        catch (final BenchException ex)
        {
            err.println("[bench] " + ex.getMessage());
            return 1;
        }
        finally
        {
            Runtimes.deleteRecursively(work);
        }

        final List<LatencyRunReport.PeerEntry> entries = new ArrayList<>();
        final List<PercentilePlot.Line> lines = new ArrayList<>();
        for (final Peer peer : settings.peers())
        {
            final List<PeerRound> peerRounds = rounds.of(peer);
            if (peerRounds == null)
            {
                continue;
            }
            final PeerRound median = median(peerRounds);
            entries.add(entry(median, peerRounds, launcher));
            lines.add(new PercentilePlot.Line(peer.id(), median.histogram()));
        }
        final LatencyRunReport report = new LatencyRunReport(protocol.benchmark(), tls, started.toString(),
            (System.nanoTime() - startNanos) / 1e9, Runtimes.jdk(), Runtimes.os(),
            Runtime.getRuntime().availableProcessors(), cpus.note(), settings.jvmOptions(), settings.epsilon(),
            settings.warmup(), settings.messages(), settings.size(), settings.rounds(), entries, rounds.failures());

        out.println();
        for (final LatencyRunReport.PeerEntry entry : entries)
        {
            out.println(LatencyReport.seedTable(entry, settings.rounds()));
        }
        out.println(LatencyReport.legend(protocol, tls));
        out.print(LatencyReport.comparison(entries, false));
        if (!entries.isEmpty())
        {
            final ResultFiles.Written written =
                ResultFiles.writeLatency(protocol, tls, settings.outDir(), started, report, lines);
            out.println();
            out.println("Results: " + written.json() + ", " + written.markdown() + ", " + written.png());
        }
        return rounds.reportFailures(out);
    }

    private String title()
    {
        return protocol.title() + (tls ? " over TLS 1.3" : "");
    }

    private PeerRound runOnce(final Peer peer, final int round, final PeerLauncher launcher, final Path work,
        final BenchCertificates certificates, final ProgressBar progress)
    {
        final Path histogramFile = work.resolve(peer.id() + "-" + round + ".rtt");
        final Path progressFile = work.resolve(peer.id() + "-" + round + ".progress");
        final ProgressFile counter = ProgressFile.create(progressFile);
        final long total = (long)settings.warmup() + settings.messages();
        // Generous, yet bounded: a minute to start plus a millisecond per message.
        final Duration limit = Duration.ofSeconds(60).plusMillis(total);
        final long maxSeconds = limit.toSeconds() + 60;
        final CpuPlan cpus = launcher.cpus();

        final Peer.Roles roles = peer.latency(protocol);
        final String cMode = protocol == Protocol.TCP ? "" : protocol.id() + "-";
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
        try (PeerProcess server = PeerProcess.start(peer.id() + " server", serverCommand))
        {
            final int port = Runtimes.port(server.awaitLine("'listening on port' line",
                line -> line.startsWith("listening on port "), LISTEN_TIMEOUT));
            final Map<String, Object> args = new LinkedHashMap<>();
            args.put("port", port);
            args.put("warmup", settings.warmup());
            args.put("messages", settings.messages());
            args.put("size", settings.size());
            args.put("histogram", histogramFile);
            args.put("progress", progressFile);
            args.put("max-seconds", maxSeconds);
            if (certificates != null)
            {
                args.put("truststore", certificates.trustStore());
                args.put("store-password", certificates.password());
            }
            final List<String> clientCommand = peer.isJava()
                ? launcher.java(peer, roles.client(), cpus.clientCpu(), args)
                : launcher.c(cpus.clientCpu(), cMode + "client", port, settings.warmup(), settings.messages(),
                    settings.size(), histogramFile, progressFile, maxSeconds);
            try (PeerProcess client = PeerProcess.start(peer.id() + " client", clientCommand))
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
                final Histogram histogram = peer.isJava() ? readEncoded(histogramFile) : readRaw(histogramFile);
                check(peer, histogram, clientStats, serverStats);
                return new PeerRound(peer, round, histogram, LatencySummary.of(histogram), clientStats,
                    serverStats);
            }
        }
    }

    private void check(final Peer peer, final Histogram histogram, final SideStats client, final SideStats server)
    {
        final long expected = settings.messages();
        final long lost = client.lost() == null ? 0 : client.lost();
        // Over UDP the server also counts requests whose echo was lost, and the client sent those again.
        final boolean serverCountOk = protocol.lossy()
            ? server.messages() >= expected && server.messages() <= expected + lost
            : server.messages() == expected;
        if (histogram.getTotalCount() != expected || client.messages() != expected || !serverCountOk)
        {
            throw new BenchException(peer.id() + " measured " + histogram.getTotalCount() + " round trips (client "
                + "says " + client.messages() + ", server " + server.messages() + ", lost " + lost + "), expected "
                + expected);
        }
    }

    private static Histogram readEncoded(final Path file)
    {
        try
        {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Files.readAllBytes(file)), 0);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        catch (final DataFormatException ex)
        {
            throw new BenchException("corrupt histogram in " + file + ": " + ex.getMessage());
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

    private LatencyRunReport.PeerEntry entry(final PeerRound median, final List<PeerRound> all,
        final PeerLauncher launcher)
    {
        final LatencySummary s = median.summary();
        final List<LatencyRunReport.Tier> tiers = new ArrayList<>();
        for (final LatencySummary.Tier tier : s.tiers())
        {
            tiers.add(new LatencyRunReport.Tier(tier.percentile(), tier.avg(), tier.max()));
        }
        final List<LatencyRunReport.Round> roundList = new ArrayList<>();
        for (final PeerRound r : all)
        {
            roundList.add(new LatencyRunReport.Round(r.round(), r.summary().p50(), r.summary().p99(),
                r.summary().p9999(), r.summary().max()));
        }
        final Peer peer = median.peer();
        final CpuPlan cpus = launcher.cpus();
        final String description = peer.latency(protocol).description()
            + (tls ? ", TLS 1.3 (" + peer.tlsDescription() + ")" : "");
        return new LatencyRunReport.PeerEntry(peer.id(), description, tls, s.count(), settings.size(),
            median.round(), s.avg(), s.min(), s.p50(), s.p90(), s.p99(), s.p999(), s.p9999(), s.p99999(), s.max(),
            tiers,
            peer.isJava() ? new Sides<>(median.client().gcCount(), median.server().gcCount()) : null,
            peer.isJava() ? new Sides<>(median.client().allocatedPerMessage(),
                median.server().allocatedPerMessage()) : null,
            cpus.pinned() ? new Sides<>(cpus.clientCpu(), cpus.serverCpu()) : null,
            peer.isJava() ? median.client().jdk() : null,
            peer.isJava() ? launcher.jvmOptions(peer) : List.of(), roundList,
            protocol.lossy() ? median.client().lost() : null);
    }
}
