package io.celer.bench.http;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.Cells;
import io.celer.bench.harness.CommandedChild;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.ToolRun;

/**
 * Runs the 2009 paper's test: ab without keep-alive on {@code /gettimeblock}, at each concurrency, against each
 * server; then the paper's table of requests per second, a chart, and ab's percentiles per server.
 */
final class PaperRun
{
    /** The page the paper's servers computed per request. */
    static final String PATH = "/gettimeblock";

    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What a run was asked to do.
     *
     * @param peers       the servers, in the order of the first round.
     * @param concurrency ab's {@code -c} values.
     * @param requests    ab's {@code -n} per concurrency.
     * @param rounds      runs per server.
     * @param launcher    starts the servers, placed.
     * @param outDir      where result files go.
     */
    record Settings(List<HttpPeer> peers, List<Integer> concurrency, int requests, int rounds,
        PeerLauncher launcher, Path outDir)
    {
    }

    /**
     * The run's settings as written to JSON.
     *
     * @param path        the page requested.
     * @param concurrency ab's {@code -c} values.
     * @param requests    ab's {@code -n} per concurrency.
     * @param keepAlive   whether ab kept connections open (never, as in the paper).
     * @param rounds      runs per server.
     * @param serverCpu   the server's CPU, or null when not pinned.
     * @param clientCpu   ab's CPU, or null when not pinned or sharing the server's.
     * @param serverReactors the reactors (Celer) or event loops (Netty, Vert.x) of the servers that have some.
     * @param serverCpus  the server's CPUs, one per reactor, or null when not pinned.
     * @param abTimeoutS  the bound on one ab run.
     * @param skipped     servers that could not run here, and why.
     */
    record Written(String path, List<Integer> concurrency, int requests, boolean keepAlive, int rounds,
        Integer serverCpu, Integer clientCpu, int serverReactors, List<Integer> serverCpus,
        @JsonProperty("ab_timeout_s") long abTimeoutS, List<String> skipped)
    {
    }

    /**
     * A run.
     *
     * @param settings what to run.
     * @param out      the report.
     * @param err      progress and failures.
     */
    PaperRun(final Settings settings, final PrintStream out, final PrintStream err)
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
        if (!ToolRun.installed("ab"))
        {
            err.println("[bench] ab is not installed: apt-get install apache2-utils");
            return 1;
        }
        final ServerSide servers = new ServerSide(settings.launcher());
        final List<String> skipped = new ArrayList<>();
        final List<HttpPeer> runnable = servers.runnable(settings.peers(), skipped, out);
        final CpuPlan cpus = settings.launcher().cpus();
        out.printf(Locale.ROOT, "http-paper: ab -c N -n %,d (no keep-alive) on %s, N = %s, %d round(s), %s%n",
            settings.requests(), PATH, settings.concurrency(), settings.rounds(), ServerSide.reactors(cpus));
        settings.launcher().printSetup(out, "Pinning", cpus.note());
        try (RunContext run = RunContext.start(out, err))
        {
            final Rounds<HttpPeer, List<PaperPoint>> rounds = Sweep.run(servers, runnable, settings.concurrency(),
                settings.rounds(), settings.requests(), err,
                (peer, server, port, n, progress) -> measure(server, port, n, run.work()));
            final List<Sweep.Entry<PaperPoint>> entries = rounds.entries(Sweep::entry);
            final Written written = new Written(PATH, settings.concurrency(), settings.requests(), false,
                settings.rounds(), cpus.pinned() ? cpus.serverCpu() : null, ServerSide.clientCpu(cpus),
                cpus.servers(), cpus.pinned() ? cpus.serverCpus() : null, abLimit().toSeconds(), skipped);
            final Report report = Report.of("http-paper",
                run.result("http-paper", written, entries, rounds.failures()),
                Sweep.rates("N", settings.concurrency(), entries))
                .title("HTTP: the 2009 paper's test, requests per second")
                .intro(String.format(Locale.ROOT, "ab -c N -n %,d without keep-alive on %s (a 4 KiB page of "
                    + "fresh System.nanoTime() digits, then Connection: close), each server alone on %s and ab "
                    + "on %s.", settings.requests(), PATH, ServerSide.serverCpus(cpus),
                    cpus.clientCpu() < 0 && cpus.pinned() ? "the same CPUs" : "another"))
                .fact("Pinning", cpus.note())
                .fact("Server reactors", ServerSide.reactors(cpus))
                .fact("Rounds", settings.rounds() + " (the median per N)")
                .legend("Requests per second (ab's mean), a row per concurrency N, a column per server.")
                .chart(Sweep.chart("Requests per second by concurrent ab clients (no keep-alive, " + PATH + ")",
                    "concurrent clients (ab -c)", false, entries))
                .chartBelow(Sweep.cpuChart("concurrent clients (ab -c)", false, entries))
                .table("Server CPU time per request, microseconds (user and system, from /proc over the ab run; "
                    + "ab's is in the per-server table)", Sweep.cpuPerRequest("N", settings.concurrency(), entries))
                .section("Per server", details(entries));
            if (!skipped.isEmpty())
            {
                report.notes(String.join("\n", skipped) + "\n");
            }
            Sweep.addRoundRates(report, settings.rounds(), "N", settings.concurrency(), entries);
            return run.finish(report, settings.outDir());
        }
    }

    private PaperPoint measure(final CommandedChild server, final int port, final int n, final Path work)
    {
        server.begin();
        final List<String> command = new ArrayList<>(settings.launcher().cpus()
            .prefix(settings.launcher().cpus().clientCpu()));
        // -r: a socket error counts as a failed request instead of ending the run.
        command.addAll(List.of("ab", "-q", "-r", "-s", "30", "-c", Integer.toString(n), "-n",
            Integer.toString(Math.max(n, settings.requests())), "http://127.0.0.1:" + port + PATH));
        final ToolRun ab = ToolRun.run("ab -c " + n, command, work, abLimit());
        final ServerFacts facts = ServerFacts.of(server.stats());
        if (ab.exitValue() != 0)
        {
            throw new BenchException("ab -c " + n + " exited with status " + ab.exitValue() + ":\n" + ab.output());
        }
        final AbOutput parsed = AbOutput.parse(ab.output());
        return new PaperPoint(n, parsed, ab.cpuPercent(), ab.cpuMicrosPer(parsed.complete()), facts);
    }

    /** Generous, yet bounded: half a minute plus 10 ms a request, for the slowest server on a loaded machine. */
    private Duration abLimit()
    {
        return Duration.ofSeconds(30).plusMillis(10L * settings.requests());
    }

    private static String details(final List<Sweep.Entry<PaperPoint>> entries)
    {
        return "ab's percentiles in whole milliseconds; GC and allocation from the server's stats over the ab "
            + "run (scope: the event loop's thread, or all threads for servers that answer on many); CPU: each "
            + "process's CPU time over the run, percent of one core, ab / server (the side near 100 % set the rate); "
            + "CPU us/req: each process's CPU time, user and system, per request it handled, ab / server; "
            + "loops and per-loop share %: the server's reactors or event loops and each one's share of the "
            + "requests (req) and of the connections (conn: the most it held at once; Celer alone tells), n/a for "
            + "servers of threads, which ignore --server-reactors.\n\n"
            + Sweep.points(List.of("server", "N", "req/s", "failed", "non-2xx", "p50 ms", "p90 ms", "p99 ms",
                "max ms", "GC", "alloc B/req", "scope", "CPU % ab / s", "CPU us/req ab / s", "loops",
                "per-loop share %"),
                entries, p ->
            {
                final AbOutput ab = p.ab();
                return List.of(Integer.toString(p.concurrency()), Cells.format("%,.0f", ab.requestsPerSecond()),
                    Long.toString(ab.failed()), Long.toString(ab.non2xx()), ms(ab.at(50)), ms(ab.at(90)),
                    ms(ab.at(99)), ms(ab.at(100)), Cells.orNa(p.server().gcCount(), "%d"),
                    Cells.orNa(p.server().allocatedBytesPerRequest(), "%,.0f"),
                    String.valueOf(p.server().allocationScope()),
                    HttpDetails.percent(p.abCpu()) + " / " + HttpDetails.percent(p.server().cpuPercent()),
                    Cells.cpuPerMessage(p.abCpuPerRequest()) + " / "
                        + Cells.cpuPerMessage(p.server().cpuMicrosPerRequest()),
                    Cells.orNa(p.server().loops(), "%d"), p.server().spreadCell());
            }).markdown();
    }

    private static String ms(final Long value)
    {
        return Cells.orNa(value, "%d");
    }
}
