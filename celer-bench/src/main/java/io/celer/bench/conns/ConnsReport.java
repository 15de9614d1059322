package io.celer.bench.conns;

import java.util.ArrayList;
import java.util.List;

import io.celer.bench.harness.BarPlot;
import io.celer.bench.harness.Cells;
import io.celer.bench.harness.LoopShares;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Result;
import io.celer.bench.harness.Table;

/**
 * The report of {@code bench conns}: the resident set's growth per connection and its extrapolation, then a
 * table per scenario with every figure, and bars of the growth per server.
 */
final class ConnsReport
{
    private static final double KIB = 1024;
    private static final double MIB = KIB * KIB;
    private static final double GIB = MIB * KIB;

    private ConnsReport()
    {
    }

    /**
     * The run's settings as written to JSON.
     *
     * @param connections           connections each server held.
     * @param scenarios             the scenarios run.
     * @param connectionsPerClient  connections a client process opened at most.
     * @param connectionsPerAddress connections from one source address.
     * @param clientProcesses       client processes a run used.
     * @param sourceAddresses       source addresses a run used.
     * @param roundTrips            the fresh client's timed round trips.
     * @param warmupRoundTrips      its unmeasured ones.
     * @param size                  bytes of the WebSocket message.
     * @param rounds                runs of each server and scenario.
     * @param pinning               where the processes ran.
     * @param openFileLimit         the harness's open-file limit, which its children inherit; -1 unknown.
     * @param extrapolatedTo        the counts the growth is extrapolated to.
     * @param serverReactors        each server's reactors or event loops.
     * @param heapClasses           classes listed per server whose live objects grew the most; 0 for none.
     */
    record Written(int connections, List<String> scenarios, int connectionsPerClient, int connectionsPerAddress,
        int clientProcesses, int sourceAddresses, int roundTrips, int warmupRoundTrips, int size, int rounds,
        String pinning, long openFileLimit, List<Integer> extrapolatedTo, int serverReactors, int heapClasses)
    {
    }

    /**
     * The settings for the JSON.
     *
     * @param settings the run's settings.
     * @return what is written.
     */
    static Written written(final ConnsSettings settings)
    {
        final List<String> scenarios = new ArrayList<>();
        for (final Scenario scenario : settings.scenarios())
        {
            scenarios.add(scenario.id());
        }
        return new Written(settings.connections(), scenarios, settings.perClient(), settings.perAddress(),
            settings.clientProcesses(), settings.sourceAddresses(), settings.roundTrips(), settings.warmupRoundTrips(),
            settings.size(), settings.rounds(), settings.launcher().cpus().note(), OpenFiles.limit(),
            ConnsPoint.EXTRAPOLATED_TO, settings.launcher().cpus().servers(), settings.heapClasses());
    }

    /**
     * The report.
     *
     * @param settings the run's settings.
     * @param result   what goes to JSON.
     * @param entries  one per server and scenario that completed, scenario by scenario.
     * @return the report.
     */
    static Report report(final ConnsSettings settings, final Result result, final List<ConnsPoint> entries)
    {
        final PeerLauncher launcher = settings.launcher();
        final Report report = Report.of("conns", result, Table.of(List.of("server", "scenario",
                "RSS KiB/conn", "at 100,000", "at 1,000,000"), entries, ConnsReport::extrapolation))
            .title("Idle connections: what each costs a server")
            .intro(Cells.format("Each server held %,d idle connections, opened one after another, each after one "
                + "exchange of its scenario; its memory was measured before and with them, after full "
                + "collections, and a fresh client timed its round trips before and with them.",
                settings.connections()))
            .placement("Pinning", launcher.cpus().note(), launcher)
            .fact("Connections", Cells.format("%,d per server, from %d client process(es) of at most %,d and %d "
                    + "loopback source address(es) of at most %,d (127.0.0.2 on)", settings.connections(),
                settings.clientProcesses(), settings.perClient(), settings.sourceAddresses(), settings.perAddress()))
            .fact("Fresh client", Cells.format("one new connection from 127.0.0.1: %,d unmeasured round trips, "
                + "then %,d timed", settings.warmupRoundTrips(), settings.roundTrips()))
            .fact("Open-file limit", Long.toString(OpenFiles.limit()))
            .fact("Rounds", settings.rounds() + " (the round with the median RSS growth per connection)")
            .legend("The server's resident set (VmRSS) grew by RSS KiB/conn for each connection held, from a "
                + "baseline taken after its young generation was filled with garbage once, as a server that has "
                + "run for a while has touched it; the next columns multiply that growth out. Each scenario's "
                + "table adds the heap in use after full "
                + "collections and the JDK's direct buffers, per connection; the kernel's TCP buffer pages "
                + "(/proc/net/sockstat) and slab memory (/proc/meminfo), per connection for both of its loopback "
                + "ends and machine-wide, so anything else the machine did meanwhile counts; the time to open them "
                + "all; the fresh client's round trips, idle (before) and loaded (with the connections); and, on "
                + "several reactors, each one's share of the connections (Celer alone tells).");
        for (final Scenario scenario : settings.scenarios())
        {
            final List<ConnsPoint> rows = new ArrayList<>();
            for (final ConnsPoint entry : entries)
            {
                if (entry.scenario().equals(scenario.id()))
                {
                    rows.add(entry);
                }
            }
            if (!rows.isEmpty())
            {
                report.table(Cells.format("%s, %,d connections", scenario.description(), settings.connections()),
                    Table.of(List.of("server", "RSS KiB/conn", "heap KiB/conn", "direct KiB/conn",
                        "kernel buffers KiB/conn", "kernel slab KiB/conn", "open s", "p50 us idle / loaded",
                        "p99 us idle / loaded", "per-reactor conn %"), rows, ConnsReport::figures));
            }
        }
        for (final ConnsPoint entry : entries)
        {
            if (!entry.heapClasses().isEmpty())
            {
                report.table(Cells.format("%s %s: the classes that grew the most, per connection", entry.peer(),
                    entry.scenario()), Table.of(List.of("class", "bytes/conn", "objects/conn"), entry.heapClasses(),
                    ConnsReport::grown));
            }
        }
        return entries.isEmpty() ? report : report.bars(bars(settings, entries));
    }

    private static List<String> grown(final ClassGrowth growth)
    {
        return List.of(growth.name(), Cells.format("%,.0f", growth.bytes()), Cells.format("%.2f", growth.instances()));
    }

    private static List<String> extrapolation(final ConnsPoint point)
    {
        final List<String> cells = new ArrayList<>(List.of(point.peer(), point.scenario(),
            kib(point.perConnection().rssBytes())));
        for (final ConnsPoint.Extrapolated at : point.extrapolated())
        {
            cells.add(size(at.rssBytes()));
        }
        return cells;
    }

    private static List<String> figures(final ConnsPoint point)
    {
        final ConnsPoint.PerConnection per = point.perConnection();
        final ConnsPoint.Fresh fresh = point.freshClient();
        return List.of(point.peer(), kib(per.rssBytes()), kib(per.heapBytes()), kib(per.directBytes()),
            kib(per.kernelBufferBytes()), kib(per.kernelSlabBytes()), Cells.format("%.2f", point.openSeconds()),
            Cells.micros(fresh.idle().p50()) + " / " + Cells.micros(fresh.loaded().p50()),
            Cells.micros(fresh.idle().p99()) + " / " + Cells.micros(fresh.loaded().p99()),
            LoopShares.cell(point.loopConnectionsPercent()));
    }

    private static BarPlot.Chart bars(final ConnsSettings settings, final List<ConnsPoint> entries)
    {
        final List<String> servers = new ArrayList<>();
        for (final ConnsPeer peer : settings.peers())
        {
            servers.add(peer.id());
        }
        final List<BarPlot.Series> series = new ArrayList<>();
        for (final Scenario scenario : settings.scenarios())
        {
            final List<Double> values = new ArrayList<>();
            for (final String server : servers)
            {
                Double value = null;
                for (final ConnsPoint entry : entries)
                {
                    if (entry.peer().equals(server) && entry.scenario().equals(scenario.id()))
                    {
                        value = entry.perConnection().rssBytes() / KIB;
                    }
                }
                values.add(value);
            }
            series.add(new BarPlot.Series(scenario.id(), values));
        }
        return new BarPlot.Chart(Cells.format("Server RSS growth per idle connection, %,d connections",
            settings.connections()), "server", "KiB per connection", servers, series);
    }

    private static String kib(final double bytes)
    {
        return Cells.format("%,.1f", bytes / KIB);
    }

    private static String size(final double bytes)
    {
        return bytes >= GIB ? Cells.format("%,.1f GiB", bytes / GIB) : Cells.format("%,.0f MiB", bytes / MIB);
    }
}
