package io.celer.bench.http;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;

import org.HdrHistogram.Histogram;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CommandedChild;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.HistogramFiles;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.ToolRun;
import io.celer.bench.http.peer.CelerHttpPingClient;
import io.celer.bench.peer.server.ReactorIdle;

/**
 * Runs {@code bench http}: keep-alive ping-pong on {@code /plaintext} at each connection count, driven by Celer's
 * HTTP client or by wrk, against each server; then the table of requests per second, a chart and the latencies.
 */
final class HttpRun
{
    private static final String PATH = "/plaintext";
    private static final FixedPeer CLIENT =
        new FixedPeer("celer-http-client", "Celer HttpClient, one reactor waiting in the selector when idle", true,
            null);
    private static final String CPU_TABLE = "Server CPU time per request, microseconds (user and system, from "
        + "/proc over the measure; the driver's is in the per-server table)";
    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99, 100};

    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What drives the load.
     */
    enum Driver
    {
        /** Celer's HTTP client on its own pinned reactor ({@link CelerHttpPingClient}). */
        CELER,
        /** {@code wrk -t1 --latency}. */
        WRK
    }

    /**
     * What a run was asked to do.
     *
     * @param peers          the servers, in the order of the first round.
     * @param connections    the connection counts.
     * @param warmupSeconds  unmeasured seconds before each measure.
     * @param seconds        measured seconds.
     * @param driver         what loads the servers.
     * @param driverIdle     what Celer's driver reactor does when idle.
     * @param rounds         runs per server.
     * @param launcher       starts the children, placed.
     * @param outDir         where result files go.
     */
    record Settings(List<HttpPeer> peers, List<Integer> connections, int warmupSeconds, int seconds, Driver driver,
        ReactorIdle driverIdle, int rounds, PeerLauncher launcher, Path outDir)
    {
    }

    /**
     * The run's settings as written to JSON.
     *
     * @param path          the page requested.
     * @param driver        {@code celer} or {@code wrk}.
     * @param driverIdle    what Celer's driver reactor did when idle ({@code select}, {@code yield}...); null for
     *                      wrk.
     * @param connections   the connection counts.
     * @param warmupSeconds unmeasured seconds before each measure.
     * @param seconds       measured seconds.
     * @param rounds        runs per server.
     * @param serverCpu     the server's CPU, or null when not pinned.
     * @param clientCpu     the driver's CPU, or null when not pinned or sharing the server's.
     * @param serverReactors the server's reactors (Celer) or event loops (Netty, Vert.x).
     * @param serverCpus    the server's CPUs, one per reactor, or null when not pinned.
     * @param openFileLimit the harness's soft open-file limit (children that need more raise theirs), -1 unknown.
     * @param skipped       servers that could not run here, and why.
     */
    record Written(String path, String driver, String driverIdle, List<Integer> connections, int warmupSeconds,
        int seconds, int rounds, Integer serverCpu, Integer clientCpu, int serverReactors, List<Integer> serverCpus,
        long openFileLimit, List<String> skipped)
    {
    }

    /**
     * A run.
     *
     * @param settings what to run.
     * @param out      the report.
     * @param err      progress and failures.
     */
    HttpRun(final Settings settings, final PrintStream out, final PrintStream err)
    {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs every server and writes the files.
     *
     * @return 0 when everything ran, 1 otherwise.
     */
    int run()
    {
        if (settings.driver() == Driver.WRK && !ToolRun.installed("wrk"))
        {
            err.println("[bench] wrk is not installed: apt-get install wrk");
            return 1;
        }
        final ServerSide servers = new ServerSide(settings.launcher());
        final CpuPlan cpus = settings.launcher().cpus();
        final String driver = settings.driver().name().toLowerCase(Locale.ROOT);
        out.printf(Locale.ROOT, "http: keep-alive GET %s, one request in flight per connection, connections = %s, "
            + "%d s warm-up + %d s measured, driver %s, %d round(s), %s; open-file limit %d%n", PATH,
            settings.connections(), settings.warmupSeconds(), settings.seconds(), driver, settings.rounds(),
            ServerSide.reactors(cpus), FileLimit.soft());
        settings.launcher().printSetup(out, "Pinning", cpus.note());
        // A server that cannot run here (its transport or JDK missing) is dropped with a note, as in every bench.
        final List<String> skipped = new ArrayList<>();
        final List<HttpPeer> runnable = servers.runnable(settings.peers(), skipped, out);
        if (runnable.isEmpty())
        {
            throw new BenchException(String.join("; ", skipped));
        }
        try (RunContext run = RunContext.start(out, err))
        {
            final Rounds<HttpPeer, List<HttpPoint>> rounds = Sweep.run(servers, runnable,
                settings.connections(), settings.rounds(), 1000L * (settings.warmupSeconds() + settings.seconds()),
                err, (peer, server, port, connections, progress) -> settings.driver() == Driver.CELER
                    ? celer(peer, server, port, connections, progress, run.work())
                    : wrk(server, port, connections, progress, run.work()));
            final List<Sweep.Entry<HttpPoint>> entries = rounds.entries(Sweep::entry);
            final Written written = new Written(PATH, driver,
                settings.driver() == Driver.CELER ? settings.driverIdle().id() : null, settings.connections(),
                settings.warmupSeconds(), settings.seconds(), settings.rounds(), cpus.pinned() ? cpus.serverCpu() : null,
                ServerSide.clientCpu(cpus), cpus.servers(), cpus.pinned() ? cpus.serverCpus() : null,
                FileLimit.soft(), skipped);
            final String name = settings.driver() == Driver.CELER ? "http" : "http-wrk";
            final Report report = Report.of(name, run.result(name, written, entries, rounds.failures()),
                Sweep.rates("connections", settings.connections(), entries))
                .title("HTTP: keep-alive ping-pong on " + PATH + ", requests per second (" + driver + ")")
                .intro(String.format(Locale.ROOT, "Each connection sends GET %s when its previous response is in "
                    + "(no pipelining); %d s of warm-up, then %d s measured; the server on %s, the driver (%s) on "
                    + "%s.", PATH, settings.warmupSeconds(), settings.seconds(), ServerSide.serverCpus(cpus),
                    settings.driver() == Driver.CELER
                        ? "Celer's HttpClient on a reactor that waits in the selector when idle" : "wrk -t1",
                    cpus.clientCpu() < 0 && cpus.pinned() ? "the same CPUs" : "another"))
                .fact("Pinning", cpus.note())
                .fact("Server reactors", ServerSide.reactors(cpus))
                .fact("Rounds", settings.rounds() + " (the median per connection count)")
                .legend("Requests per second while measured, a row per connection count, a column per server.")
                .chart(Sweep.chart("Requests per second by keep-alive connections (" + driver + ")",
                    "connections", true, entries))
                .chartBelow(Sweep.cpuChart("connections", true, entries))
                .table(CPU_TABLE, Sweep.cpuPerRequest("connections", settings.connections(), entries))
                .section("Per server", HttpDetails.table(entries));
            if (!skipped.isEmpty())
            {
                report.notes(String.join("\n", skipped) + "\n");
            }
            Sweep.addRoundRates(report, settings.rounds(), "connections", settings.connections(), entries);
            return run.finish(report, settings.outDir());
        }
    }

    private HttpPoint celer(final HttpPeer peer, final CommandedChild server, final int port, final int connections,
        final LongConsumer progress, final Path work)
    {
        final Path histogramFile = work.resolve(peer.id() + "-" + connections + "-" + System.nanoTime() + ".hdr");
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("port", port);
        args.put("connections", connections);
        args.put("warmup-seconds", settings.warmupSeconds());
        args.put("seconds", settings.seconds());
        args.put("histogram", histogramFile);
        args.put("idle", settings.driverIdle().id());
        final PeerLauncher launcher = settings.launcher();
        final List<String> command = FileLimit.withRoomFor(launcher.java(CLIENT, CelerHttpPingClient.class.getName(),
            launcher.cpus().clientCpu(), args), connections);
        return DriverMeasure.run(server, peer.id() + " client", command,
            Duration.ofSeconds(60L + settings.warmupSeconds()), Duration.ofSeconds(60L + settings.seconds()),
            progress, (client, clientStats, serverStats) ->
            {
                final Histogram histogram = HistogramFiles.read(histogramFile);
                final long nanos = clientStats.nanos() == null ? 1 : Math.max(1, clientStats.nanos());
                final Long failed = clientStats.number("failed");
                return new HttpPoint(connections, histogram.getTotalCount(), failed == null ? 0 : failed,
                    histogram.getTotalCount() * 1e9 / nanos, histogram.getMean() / 1e3,
                    HttpPoint.Percentile.of(histogram, PERCENTILES), clientStats.gcCount(),
                    clientStats.allocatedPerMessage(), clientStats.cpuPercent(), clientStats.cpuMicrosPerMessage(),
                    ServerFacts.of(serverStats));
            });
    }

    private HttpPoint wrk(final CommandedChild server, final int port, final int connections,
        final LongConsumer progress, final Path work)
    {
        final String url = "http://127.0.0.1:" + port + PATH;
        if (settings.warmupSeconds() > 0)
        {
            ToolRun.run("wrk warm-up", wrkCommand(connections, settings.warmupSeconds(), false, url), work,
                Duration.ofSeconds(60L + settings.warmupSeconds()));
            progress.accept(1000L * settings.warmupSeconds());
        }
        server.begin();
        final ToolRun wrk = ToolRun.run("wrk -c " + connections, wrkCommand(connections, settings.seconds(), true,
            url), work, Duration.ofSeconds(60L + settings.seconds()));
        final ServerFacts facts = ServerFacts.of(server.stats());
        if (wrk.exitValue() != 0)
        {
            throw new BenchException("wrk -c " + connections + " exited with status " + wrk.exitValue() + ":\n"
                + wrk.output());
        }
        final WrkOutput result = WrkOutput.parse(wrk.output());
        return new HttpPoint(connections, result.requests(), result.errors(), result.requestsPerSecond(),
            result.meanUs(), result.percentiles(), null, null, wrk.cpuPercent(), wrk.cpuMicrosPer(result.requests()),
            facts);
    }

    private List<String> wrkCommand(final int connections, final int seconds, final boolean latency,
        final String url)
    {
        final CpuPlan cpus = settings.launcher().cpus();
        final List<String> command = new ArrayList<>(cpus.prefix(cpus.clientCpu()));
        command.addAll(List.of("wrk", "-t1", "-c" + connections, "-d" + seconds + "s", "--timeout", "10s"));
        if (latency)
        {
            command.add("--latency");
        }
        command.add(url);
        return FileLimit.withRoomFor(command, connections);
    }
}
