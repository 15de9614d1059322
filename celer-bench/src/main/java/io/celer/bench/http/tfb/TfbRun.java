package io.celer.bench.http.tfb;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import io.celer.bench.http.DriverMeasure;
import io.celer.bench.http.FileLimit;
import io.celer.bench.http.HttpPoint;
import io.celer.bench.http.Sweep;
import io.celer.bench.http.WrkOutput;
import io.celer.bench.http.tfb.peer.CelerTfbClient;
import io.celer.bench.http.tfb.peer.TfbRoute;

/**
 * Runs a TechEmpower-style benchmark: for each server, in rounds, start it alone on its CPU, then at each
 * connection count load one route, pipelined or not, with Celer's checking driver or with wrk; then the table of
 * requests per second, the server's CPU per request, a chart and the latencies.
 */
final class TfbRun
{
    private static final FixedPeer CLIENT =
        new FixedPeer("celer-tfb-client", "Celer TCP connections on one reactor, spinning and yielding", true, null);
    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 100};
    private static final String SCRIPT = "tfb-pipeline.lua";
    /** wrk warm-ups run at most while the server has answered nothing. */
    private static final int WARM_UP_ATTEMPTS = 5;
    private static final Pattern CHECKED = Pattern.compile("tfb-check checked=(\\d+) wrong=(\\d+) first=(\\S*)");

    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What loads the servers.
     */
    enum Driver
    {
        /** Celer's checking driver on its own pinned reactor ({@link CelerTfbClient}). */
        CELER,
        /** {@code wrk -t1} with the project's pipelining script, checking every response during the warm-up. */
        WRK
    }

    /**
     * What a run was asked to do.
     *
     * @param route         the route loaded.
     * @param depth         requests in flight per connection.
     * @param peers         the servers, in the order of the first round.
     * @param connections   the connection counts.
     * @param warmupSeconds unmeasured seconds before each measure.
     * @param seconds       measured seconds.
     * @param driver        what loads the servers.
     * @param rounds        runs per server.
     * @param launcher      starts the children, placed.
     * @param outDir        where result files go.
     */
    record Settings(TfbRoute route, int depth, List<TfbPeer> peers, List<Integer> connections, int warmupSeconds,
        int seconds, Driver driver, int rounds, PeerLauncher launcher, Path outDir)
    {
    }

    /**
     * The run's settings as written to JSON.
     *
     * @param path          the route requested.
     * @param pipelineDepth requests in flight per connection.
     * @param driver        {@code celer} or {@code wrk}.
     * @param connections   the connection counts.
     * @param warmupSeconds unmeasured seconds before each measure.
     * @param seconds       measured seconds.
     * @param rounds        runs per server.
     * @param serverCpus    the server's CPUs, one per reactor, or null when not pinned.
     * @param clientCpu     the driver's CPU, or null when not pinned or sharing the server's.
     * @param openFileLimit the harness's soft open-file limit (children that need more raise theirs), -1 unknown.
     */
    record Written(String path, int pipelineDepth, String driver, List<Integer> connections, int warmupSeconds,
        int seconds, int rounds, List<Integer> serverCpus, Integer clientCpu, long openFileLimit)
    {
    }

    /**
     * A run.
     *
     * @param settings what to run.
     * @param out      the report.
     * @param err      progress and failures.
     */
    TfbRun(final Settings settings, final PrintStream out, final PrintStream err)
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
        final CpuPlan cpus = settings.launcher().cpus();
        final String driver = settings.driver().name().toLowerCase(Locale.ROOT);
        final String name = name();
        out.printf(Locale.ROOT, "%s: keep-alive GET %s, %d in flight per connection, connections = %s, %d s warm-up "
            + "+ %d s measured, driver %s, %d round(s); open-file limit %d%n", name, settings.route().path(),
            settings.depth(), settings.connections(), settings.warmupSeconds(), settings.seconds(), driver,
            settings.rounds(), FileLimit.soft());
        settings.launcher().printSetup(out, "Pinning", cpus.note());
        try (RunContext run = RunContext.start(out, err))
        {
            final Path script = settings.driver() == Driver.WRK ? script(run.work()) : null;
            final long units = 1000L * (settings.warmupSeconds() + settings.seconds());
            final Rounds<TfbPeer, List<TfbPoint>> rounds = Rounds.run(settings.peers(), settings.rounds(),
                TfbPeer::id, units * settings.connections().size(), err, (peer, round, progress) ->
                {
                    final List<TfbPoint> points = new ArrayList<>();
                    try (CommandedChild server = startServer(peer))
                    {
                        final int port = server.awaitPort();
                        long done = 0;
                        for (final int connections : settings.connections())
                        {
                            final long before = done;
                            final LongConsumer share = within -> progress.update(before + within);
                            points.add(settings.driver() == Driver.CELER
                                ? celer(peer, server, port, connections, share, run.work())
                                : wrk(server, port, connections, share, run.work(), script));
                            done += units;
                            progress.update(done);
                        }
                    }
                    return points;
                });
            final List<Sweep.Entry<TfbPoint>> entries = rounds.entries(Sweep::entry);
            final Written written = new Written(settings.route().path(), settings.depth(), driver,
                settings.connections(), settings.warmupSeconds(), settings.seconds(), settings.rounds(),
                cpus.pinned() ? cpus.serverCpus() : null,
                cpus.pinned() && cpus.clientCpu() >= 0 ? cpus.clientCpu() : null, FileLimit.soft());
            final String file = settings.driver() == Driver.CELER ? name : name + "-wrk";
            final Report report = Report.of(file, run.result(file, written, entries, rounds.failures()),
                Sweep.rates("connections", settings.connections(), entries))
                .title(String.format(Locale.ROOT, "TechEmpower %s: GET %s%s, requests per second (%s)", name,
                    settings.route().path(), settings.depth() > 1 ? ", pipelined " + settings.depth() + " deep" : "",
                    driver))
                .intro(intro(cpus))
                .fact("Pinning", cpus.note())
                .fact("Rounds", settings.rounds() + " (the median per connection count)")
                .legend("Right responses per second while measured, a row per connection count, a column per "
                    + "server.")
                .chart(Sweep.chart("Requests per second by connections, GET " + settings.route().path() + " ("
                    + driver + ")", "connections", true, entries))
                .section("Per server", TfbDetails.table(entries));
            Sweep.addRoundRates(report, settings.rounds(), "connections", settings.connections(), entries);
            return run.finish(report, settings.outDir());
        }
    }

    private String name()
    {
        return settings.route().name().toLowerCase(Locale.ROOT);
    }

    private String intro(final CpuPlan cpus)
    {
        return String.format(Locale.ROOT, "Each connection keeps %s; every response must carry status 200, the exact "
            + "body, Content-Type, Content-Length, Server and Date, or the run fails (%s). %d s of warm-up, then "
            + "%d s measured; the server alone on %s, the driver (%s) on %s.",
            settings.depth() == 1 ? "one GET " + settings.route().path() + " in flight"
                : settings.depth() + " pipelined GET " + settings.route().path() + " in flight",
            settings.driver() == Driver.CELER ? "Celer's driver checks every response"
                : "wrk's warm-up checks every response, its measure none",
            settings.warmupSeconds(), settings.seconds(),
            cpus.servers() == 1 ? "one CPU" : cpus.servers() + " CPUs",
            settings.driver() == Driver.CELER ? "Celer TCP connections on one reactor" : "wrk -t1",
            cpus.clientCpu() < 0 && cpus.pinned() ? "the same CPUs" : "another");
    }

    private CommandedChild startServer(final TfbPeer peer)
    {
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("port", 0);
        args.putAll(peer.args());
        return CommandedChild.start(peer.id() + " server", FileLimit.withRoomFor(
            settings.launcher().server(peer, peer.mainClass(), args), Collections.max(settings.connections())));
    }

    private TfbPoint celer(final TfbPeer peer, final CommandedChild server, final int port, final int connections,
        final LongConsumer progress, final Path work)
    {
        final Path histogramFile = work.resolve(peer.id() + "-" + connections + "-" + System.nanoTime() + ".hdr");
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("port", port);
        args.put("route", settings.route().name());
        args.put("connections", connections);
        args.put("depth", settings.depth());
        args.put("warmup-seconds", settings.warmupSeconds());
        args.put("seconds", settings.seconds());
        args.put("histogram", histogramFile);
        final PeerLauncher launcher = settings.launcher();
        final List<String> command = FileLimit.withRoomFor(launcher.java(CLIENT, CelerTfbClient.class.getName(),
            launcher.cpus().clientCpu(), args), connections);
        // The driver waits up to a minute for its connections, and up to a minute for their first answers.
        return DriverMeasure.run(server, peer.id() + " client", command,
            Duration.ofSeconds(150L + settings.warmupSeconds()),
            Duration.ofSeconds(180L + settings.warmupSeconds() + settings.seconds()), progress,
            (client, clientStats, serverStats) ->
            {
                final Long failed = clientStats.number("failed");
                if (failed == null || failed != 0)
                {
                    throw client.failure(failed + " wrong responses or lost connections at " + connections
                        + " connections");
                }
                final Histogram histogram = HistogramFiles.read(histogramFile);
                if (histogram.getTotalCount() == 0)
                {
                    throw client.failure("no response at " + connections + " connections");
                }
                final long nanos = clientStats.nanos() == null ? 1 : Math.max(1, clientStats.nanos());
                return point(connections, histogram.getTotalCount(), 0, histogram.getTotalCount() * 1e9 / nanos,
                    "request", HttpPoint.Percentile.of(histogram, PERCENTILES), clientStats.cpuPercent(),
                    clientStats.gcCount(), clientStats.allocatedPerMessage(), TfbPoint.server(serverStats));
            });
    }

    private TfbPoint wrk(final CommandedChild server, final int port, final int connections,
        final LongConsumer progress, final Path work, final Path script)
    {
        final String url = "http://127.0.0.1:" + port + settings.route().path();
        // The warm-up checks every response: a Lua call each, too slow to measure with. It runs again while the
        // server has answered nothing yet (still starting on a busy machine), a bounded number of times.
        long checked = 0;
        for (int attempt = 1; checked == 0; attempt++)
        {
            final ToolRun warm = ToolRun.run("wrk warm-up", wrkCommand(connections,
                Math.max(1, settings.warmupSeconds()), true, url, script), work,
                Duration.ofSeconds(90L + settings.warmupSeconds()));
            if (warm.exitValue() != 0)
            {
                throw new BenchException("wrk warm-up at " + connections + " connections exited with status "
                    + warm.exitValue() + ":\n" + warm.output());
            }
            checked = checkedResponses(warm.output(), "wrk warm-up at " + connections + " connections",
                attempt < WARM_UP_ATTEMPTS);
        }
        progress.accept(1000L * settings.warmupSeconds());
        server.begin();
        final ToolRun wrk = ToolRun.run("wrk -c " + connections, wrkCommand(connections, settings.seconds(), false,
            url, script), work, Duration.ofSeconds(90L + settings.seconds()));
        final TfbPoint.Server facts = TfbPoint.server(server.stats());
        if (wrk.exitValue() != 0)
        {
            throw new BenchException("wrk -c " + connections + " exited with status " + wrk.exitValue() + ":\n"
                + wrk.output());
        }
        final WrkOutput result = WrkOutput.parse(wrk.output());
        return point(connections, result.requests(), result.errors(), result.requestsPerSecond(),
            settings.depth() > 1 ? "pipeline" : "request", result.percentiles(), wrk.cpuPercent(), null, null,
            facts);
    }

    /**
     * Reads what the pipelining script's check saw in wrk's output.
     *
     * @param output    everything wrk printed, its check's line included.
     * @param what      the run, for the message.
     * @param noneYetOk whether no response at all may pass (the warm-up will run again).
     * @return the responses checked, all right.
     * @throws BenchException if the line is missing, a response was wrong, or none came and that is not ok.
     */
    static long checkedResponses(final String output, final String what, final boolean noneYetOk)
    {
        final Matcher checked = CHECKED.matcher(output);
        if (!checked.find())
        {
            throw new BenchException(what + ": wrk printed no 'tfb-check' line:\n" + output);
        }
        final long count = Long.parseLong(checked.group(1));
        if (count == 0 && !noneYetOk || Long.parseLong(checked.group(2)) != 0)
        {
            throw new BenchException(what + ": " + checked.group(2) + " of " + count + " responses wrong, first: "
                + checked.group(3).replace('_', ' '));
        }
        return count;
    }

    private static TfbPoint point(final int connections, final long requests, final long errors, final double rate,
        final String latencyOf, final List<HttpPoint.Percentile> percentiles, final Double clientCpu,
        final Long clientGc, final Double clientAllocated, final TfbPoint.Server server)
    {
        return new TfbPoint(connections, requests, errors, rate, latencyOf, List.copyOf(percentiles), clientCpu,
            clientGc, clientAllocated, server.served(), server.cpu(), server.cpuPerRequest(), server.userCpuPerRequest(),
            server.gcCount(),
            server.allocatedPerRequest(), server.jdk());
    }

    private List<String> wrkCommand(final int connections, final int seconds, final boolean check, final String url,
        final Path script)
    {
        final CpuPlan cpus = settings.launcher().cpus();
        final List<String> command = new ArrayList<>(cpus.prefix(cpus.clientCpu()));
        command.addAll(wrk(settings.route(), check, connections, seconds, settings.depth(), url, script));
        return FileLimit.withRoomFor(command, connections);
    }

    /**
     * A wrk run with the pipelining script.
     *
     * @param route       the route, whose answers a checking run checks.
     * @param check       whether to check every response (slow).
     * @param connections wrk's connections.
     * @param seconds     its duration.
     * @param depth       requests in flight per connection.
     * @param url         what it loads.
     * @param script      the script's file.
     * @return the command.
     */
    static List<String> wrk(final TfbRoute route, final boolean check, final int connections, final int seconds,
        final int depth, final String url, final Path script)
    {
        final List<String> command = new ArrayList<>();
        if (check)
        {
            command.addAll(List.of("env", "TFB_EXPECT_BODY=" + route.body(), "TFB_EXPECT_TYPE=" + route.contentType()));
        }
        command.addAll(List.of("wrk", "-t1", "-c" + connections, "-d" + seconds + "s", "--timeout", "10s",
            "--latency", "-s", script.toString(), url, "--", Integer.toString(depth)));
        return command;
    }

    /**
     * Writes the pipelining script for wrk.
     *
     * @param work the run's scratch directory.
     * @return the script's file.
     */
    static Path script(final Path work)
    {
        final Path script = work.resolve(SCRIPT);
        try (InputStream in = TfbRun.class.getResourceAsStream(SCRIPT))
        {
            if (in == null)
            {
                throw new IllegalStateException(SCRIPT + " is missing from the classpath");
            }
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
            return script;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + script, ex);
        }
    }
}
