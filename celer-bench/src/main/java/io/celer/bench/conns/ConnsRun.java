package io.celer.bench.conns;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CommandedChild;
import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.LoopShares;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.ProgressBar;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.SideStats;

/**
 * Runs {@code bench conns}: for every scenario and server, round by round, starts the server, times a fresh
 * client, measures the server and the kernel, opens and holds the connections, measures again, times a fresh
 * client again, checks every connection is still open, then resets them all and stops the server; the round with
 * the median growth per connection goes to the report.
 *
 * @param settings what to run.
 * @param out      where the report goes.
 * @param err      where progress and failures go.
 */
record ConnsRun(ConnsSettings settings, PrintStream out, PrintStream err)
{
    private static final FixedPeer CLIENT = new FixedPeer("conns-fresh-client", "one blocking NIO socket", false,
        null);
    /** The fresh client's JVM start and its round trips on a loaded machine. */
    private static final Duration FRESH_CLIENT = Duration.ofSeconds(120);
    /** A server's stats line: a task on each reactor, on a loaded machine. */
    private static final Duration STATS = Duration.ofSeconds(30);
    /** A class histogram, a full collection first, of a few gigabytes of live heap on a loaded machine. */
    private static final Duration CLASSES = Duration.ofSeconds(120);

    /**
     * Runs every round, prints the report and writes the files.
     *
     * @return 0 when every run completed, 1 otherwise.
     */
    int run()
    {
        final PeerLauncher launcher = settings.launcher();
        out.printf(Locale.ROOT, "Idle connections: %s; %,d connections each (%s), from %d client process(es) and "
                + "%d loopback source address(es); fresh client: %,d + %,d round trips; %d round(s)%n",
            Peer.ids(settings.peers()), settings.connections(), scenarioIds(), settings.clientProcesses(),
            settings.sourceAddresses(), settings.warmupRoundTrips(), settings.roundTrips(), settings.rounds());
        launcher.printSetup(out, "Pinning", launcher.cpus().note());
        try (RunContext run = RunContext.start(out, err))
        {
            final Rounds<ConnsSettings.Contender, ConnsPoint> rounds = Rounds.run(settings.contenders(),
                settings.rounds(), ConnsSettings.Contender::id, settings.connections(), err,
                (contender, round, progress) -> runOnce(contender, round, progress));
            final List<ConnsPoint> entries = rounds.entries(ConnsRun::median);
            return run.finish(ConnsReport.report(settings, run.result("conns", ConnsReport.written(settings),
                entries, rounds.failures()), entries), settings.outDir());
        }
    }

    private ConnsPoint runOnce(final ConnsSettings.Contender contender, final int round, final ProgressBar progress)
    {
        final PeerLauncher launcher = settings.launcher();
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("port", 0);
        if (contender.scenario() == Scenario.WS)
        {
            args.put("per-second", false);
        }
        final List<String> command = launcher.server(contender.peer(), contender.peer().server(contender.scenario()),
            args);
        try (CommandedChild server = CommandedChild.start(contender.id() + " server", command))
        {
            final int port = server.awaitPort();
            final RoundTrips idle = freshClient(contender, port);
            ServerMemory.fillYoungGeneration(server);
            final ServerMemory before = ServerMemory.measure(server);
            final String classesBefore = classes(server);
            final KernelMemory kernelBefore = KernelMemory.now();
            try (HeldConnections held = HeldConnections.open(settings, contender.scenario(), port,
                progress::update))
            {
                final KernelMemory kernelAfter = KernelMemory.now();
                final List<Double> spread = loopSpread(server, contender.scenario());
                final ServerMemory after = ServerMemory.measure(server);
                final List<ClassGrowth> grown = classesBefore == null ? List.of() :
                    ClassGrowth.between(classesBefore, classes(server), settings.connections(), settings.heapClasses());
                final RoundTrips loaded = freshClient(contender, port);
                final long stillOpen = held.stillOpen();
                final double heldSeconds = held.ageSeconds();
                if (stillOpen != settings.connections())
                {
                    throw new BenchException(String.format("%s: %d of %d connections were closed within %.0f s",
                        contender.id(), settings.connections() - stillOpen, settings.connections(), heldSeconds));
                }
                return ConnsPoint.of(contender, round, settings.connections(), held, stillOpen, heldSeconds, settings,
                    new ConnsPoint.Server(before, after), new ConnsPoint.Kernel(kernelBefore, kernelAfter),
                    new ConnsPoint.Fresh(idle, loaded), spread, grown);
            }
        }
    }

    /**
     * Each of the server's reactors' share of the connections it holds, where it runs several and says (Celer's
     * peers: {@code loop_peak_connections} over HTTP, {@code loop_connections} over WebSocket); null otherwise.
     */
    private List<Double> loopSpread(final CommandedChild server, final Scenario scenario)
    {
        if (settings.launcher().cpus().servers() == 1)
        {
            return null;
        }
        server.send("stats");
        final SideStats stats = SideStats.parse(server.awaitLine("'stats' line",
            line -> line.startsWith(SideStats.PREFIX), STATS));
        return LoopShares.percent(stats, scenario == Scenario.HTTP ? "peak_connections" : "connections");
    }

    /** The server's class histogram line, when the run lists classes; null otherwise. */
    private String classes(final CommandedChild server)
    {
        if (settings.heapClasses() == 0)
        {
            return null;
        }
        server.send("classes");
        return server.awaitLine("'classes' line", line -> line.startsWith(ClassGrowth.PREFIX), CLASSES);
    }

    private RoundTrips freshClient(final ConnsSettings.Contender contender, final int port)
    {
        final PeerLauncher launcher = settings.launcher();
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("port", port);
        args.put("scenario", contender.scenario().id());
        args.put("size", settings.size());
        args.put("warmup", settings.warmupRoundTrips());
        args.put("round-trips", settings.roundTrips());
        try (CommandedChild client = CommandedChild.start(contender.id() + " fresh client",
            launcher.java(CLIENT, FreshClient.class.getName(), launcher.cpus().clientCpu(), args)))
        {
            final String line = client.awaitLine("'round-trips' line", l -> l.startsWith(FreshClient.PREFIX),
                FRESH_CLIENT);
            if (!client.waitFor(FRESH_CLIENT) || client.exitValue() != 0)
            {
                throw client.failure("did not end well after its round trips");
            }
            return RoundTrips.parse(line);
        }
    }

    private String scenarioIds()
    {
        final List<String> ids = new ArrayList<>();
        for (final Scenario scenario : settings.scenarios())
        {
            ids.add(scenario.id());
        }
        return String.join(", ", ids);
    }

    private static ConnsPoint median(final List<ConnsPoint> rounds)
    {
        final List<ConnsPoint> sorted = new ArrayList<>(rounds);
        sorted.sort(Comparator.comparingDouble(p -> p.perConnection().rssBytes()));
        return sorted.get((sorted.size() - 1) / 2).withRoundsRun(rounds.size());
    }
}
