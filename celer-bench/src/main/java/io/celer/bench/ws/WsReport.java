package io.celer.bench.ws;

import static io.celer.bench.harness.Cells.format;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;

import io.celer.bench.harness.Cells;
import io.celer.bench.harness.LoopShares;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Result;
import io.celer.bench.harness.SideFacts;
import io.celer.bench.harness.SideStats;
import io.celer.bench.harness.Table;
import io.celer.bench.harness.TimeSeriesPlot;
import io.celer.bench.ws.peer.FeedOptions;
import io.celer.examples.wsfeed.WsFeedServer;

/**
 * Turns {@code bench ws}'s rounds into its entries, table, notes and plot.
 */
final class WsReport
{
    /** The goal: the fast clients' p99 with slow clients at most this times their p99 without. */
    static final double P99_GOAL = 1.2;

    private WsReport()
    {
    }

    /**
     * The JSON entry of a peer and scenario.
     *
     * @param median    its median round.
     * @param completed how many rounds completed.
     * @param launcher  what started the processes.
     * @return the entry.
     */
    static WsResult.Entry entry(final WsRound median, final int completed, final PeerLauncher launcher)
    {
        final double seconds = median.measuredSeconds();
        final WsSettings.Contender contender = median.contender();
        return new WsResult.Entry(contender.peer().id(), contender.scenario().id(), contender.peer().description(),
            median.round(), completed, (int)median.client("fast_clients"), (int)median.client("slow_clients"),
            seconds, seconds > 0 ? median.stats().client().messages() / seconds : 0,
            median.stats().client().messages(), median.client("fast_lost"), median.client("out_of_order"),
            latency(median.latency()), latency(median.sinceDue()), median.client("slow_received"),
            median.client("slow_lost"), median.server(), cpu(median, seconds),
            LoopShares.loops(median.stats().server()), LoopShares.percent(median.stats().server(), "messages"),
            LoopShares.percent(median.stats().server(), "peak_clients"),
            SideFacts.of(launcher, contender.peer(), median.stats()), median.clientSamples(), median.serverSamples());
    }

    /**
     * The settings as the JSON has them, with each peer's p99 ratio.
     *
     * @param settings the run's settings.
     * @param entries  the entries.
     * @return the settings record.
     */
    static WsResult.Settings settings(final WsSettings settings, final List<WsResult.Entry> entries)
    {
        final PeerLauncher launcher = settings.launcher();
        return new WsResult.Settings(settings.clients(), settings.rate(), settings.size(), settings.seconds(),
            settings.warmupSeconds(), settings.slowPercent(), settings.slowPauseMillis(), settings.slowReadBytes(),
            settings.queue(), settings.rssCapMb(), settings.rounds(), launcher.cpus().servers(), launcher.cpus().note(),
            launcher.describeExtraOptions(), ratios(entries));
    }

    private static List<WsResult.Ratio> ratios(final List<WsResult.Entry> entries)
    {
        final List<WsResult.Ratio> ratios = new ArrayList<>();
        for (final WsResult.Entry with : entries)
        {
            if (!with.scenario().equals(Scenario.BACKPRESSURE.id()))
            {
                continue;
            }
            for (final WsResult.Entry without : entries)
            {
                if (without.peer().equals(with.peer()) && without.scenario().equals(Scenario.NO_SLOW.id()) &&
                    without.latencyUs().p99() > 0)
                {
                    final double ratio = with.latencyUs().p99() / without.latencyUs().p99();
                    ratios.add(new WsResult.Ratio(with.peer(), ratio, ratio <= P99_GOAL));
                }
            }
        }
        return ratios;
    }

    /**
     * The report: table, notes and the plot of throughput and RSS over time.
     *
     * @param settings the run's settings.
     * @param result   the JSON.
     * @param entries  its entries.
     * @return the report.
     */
    static Report report(final WsSettings settings, final Result result, final List<WsResult.Entry> entries)
    {
        final Table table = Table.of(List.of("peer", "scenario", "fast msg/s", "p50 us", "p99 us", "p99.9 us",
            "max us", "due p50 us", "due p99 us", "due p99.9 us", "slow got", "slow lost", "dropped", "RSS MiB",
            "heap MiB", "GCs", "server CPU", "client CPU", "CPU us/msg s / c", "loops", "per-loop share %", "note"),
            entries, e ->
        {
            final WsResult.Server s = e.server();
            return List.of(e.peer(), e.scenario(), format("%,.0f", e.fastMsgsPerS()),
                format("%,.0f", e.latencyUs().p50()), format("%,.0f", e.latencyUs().p99()),
                format("%,.0f", e.latencyUs().p999()), format("%,.0f", e.latencyUs().max()),
                format("%,.0f", e.sinceDueUs().p50()), format("%,.0f", e.sinceDueUs().p99()),
                format("%,.0f", e.sinceDueUs().p999()),
                format("%,d", e.slowReceived()), format("%,d", e.slowLost()), format("%,d", s.dropped()),
                format("%,.0f", s.rssMaxMb()),
                format("%,.0f", s.heapMaxMb()), Long.toString(s.gcCount()),
                cpuCell(e.cpu().serverCorePercent(), e.cpu().serverKernelPercent()),
                cpuCell(e.cpu().clientCorePercent(), e.cpu().clientKernelPercent()),
                Cells.cpuPerMessage(e.cpu().serverUsPerMessage()) + " / "
                    + Cells.cpuPerMessage(e.cpu().clientUsPerMessage()),
                Cells.orNa(e.serverLoops(), "%d"),
                "msgs " + LoopShares.cell(e.loopMessagesPercent()) + ", clients " + LoopShares.cell(e.loopClientsPercent()),
                s.capped() ? format("RSS cap at %.0f s", s.cappedAfterS()) : "");
        });
        final StringBuilder notes = new StringBuilder();
        final List<WsResult.Ratio> ratios = ratios(entries);
        for (final WsResult.Ratio ratio : ratios)
        {
            notes.append(format("%s: fast clients' p99 with slow clients is %.2fx that without (goal: at most %.1fx, "
                + "%s)%n", ratio.peer(), ratio.ratio(), P99_GOAL, ratio.withinGoal() ? "met" : "missed"));
        }
        final Report report = Report.of("ws", result, table)
            .title("WebSocket feed with slow clients")
            .intro(format("Each server offered %,d clients %,d messages a second each of %d bytes (sequence number, "
                    + "send time, due time, padding) for %d s after %d s of warm-up; %d%% of the clients read with "
                    + "a %d ms pause after each read of at most %,d bytes. One Celer client process read them all.",
                settings.clients(), settings.rate(), settings.size(), settings.seconds(), settings.warmupSeconds(),
                settings.slowPercent(), settings.slowPauseMillis(), settings.slowReadBytes()))
            .fact("Pinning", settings.launcher().cpus().note())
            .fact("Server reactors", settings.launcher().cpus().servers() + " (Celer's reactors, Netty's and Vert.x's "
                + "event loops), each feeding the clients it accepted")
            .fact("Child JVM options", settings.launcher().describeExtraOptions())
            .fact("Celer outbox", format("%,d messages or %,d KiB a client, whichever comes first, dropping the "
                + "oldest (back-pressure on)", settings.queue(), WsFeedServer.DEFAULT_QUEUED_BYTES / 1024))
            .fact("Celer server reactor when idle", settings.celerIdle())
            .fact("Kernel send buffer", format("%d KiB (SO_SNDBUF) per client socket on every server, so that "
                + "none holds a slow client's backlog in an autotuned kernel buffer that the others bound",
                FeedOptions.DEFAULT_SEND_BUFFER / 1024))
            .fact("RSS cap", settings.rssCapMb() + " MiB: a server past it stops itself (back-pressure off)")
            .legend("fast msg/s: messages a second the fast clients received together; p50 to max: their latency "
                + "from the send stamp to receipt on the same host clock, in microseconds; due p50 to due p99.9: "
                + "their latency from the due stamp, when the client's rate owed the message, to receipt, so that a "
                + "server that generates late is not flattered (coordinated omission); slow got and slow lost: "
                + "messages the slow clients received, and the gaps in their sequence numbers, while measuring; "
                + "dropped: what the server itself counts dropping, over its whole run (a slow client sees those as "
                + "gaps only once it has read what its buffers held before); RSS, heap: the server's largest while "
                + "measuring, sampled each second; GCs: its collections; server CPU and client CPU: each "
                + "process's CPU time while measuring, as a share of one core, and the share of that spent in the "
                + "kernel (the two share the machine's cores, so what the client costs is what the "
                + "server cannot have); CPU us/msg: each process's CPU time, user and system, per message, the "
                + "server's per message it sent and the client's per message its fast clients received; loops: the "
                + "server's reactors or event loops; per-loop share %: each one's "
                + "share of the messages sent (msgs) and of the clients (the most it held at once).")
            .timePlot("throughput, RSS and CPU per message over time", List.of(
                panel("Messages a second to the fast clients", "messages/s", entries, true),
                panel("Server resident set", "MiB", entries, false), cpuPanel(entries)));
        return notes.length() == 0 ? report : report.notes(notes.toString());
    }

    private static TimeSeriesPlot.Panel panel(final String title, final String unit,
        final List<WsResult.Entry> entries, final boolean throughput)
    {
        final List<TimeSeriesPlot.Series> series = new ArrayList<>();
        for (final WsResult.Entry e : entries)
        {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            if (throughput)
            {
                e.clientSamples().forEach(s -> xs.add(s.tS()));
                e.clientSamples().forEach(s -> ys.add(s.fastMsgsPerS()));
            }
            else
            {
                e.serverSamples().forEach(s -> xs.add(s.tS()));
                e.serverSamples().forEach(s -> ys.add(s.rssMb()));
            }
            series.add(new TimeSeriesPlot.Series(e.peer() + " " + e.scenario(), xs, ys));
        }
        return new TimeSeriesPlot.Panel(title, unit, series);
    }

    /**
     * The server's CPU time per message delivered, second by second: between two of its samples, the CPU time it
     * used over the messages the clients (fast and slow) received meanwhile, at the rate of the client's second
     * nearest to the interval's middle (the two sides sample on their own clocks' seconds).
     */
    private static TimeSeriesPlot.Panel cpuPanel(final List<WsResult.Entry> entries)
    {
        final List<TimeSeriesPlot.Series> series = new ArrayList<>();
        for (final WsResult.Entry e : entries)
        {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            WsResult.ServerSample previous = null;
            for (final WsResult.ServerSample sample : e.serverSamples())
            {
                if (previous != null && previous.cpuMs() != null && sample.cpuMs() != null)
                {
                    final double middle = (previous.tS() + sample.tS()) / 2;
                    WsResult.ClientSample nearest = null;
                    for (final WsResult.ClientSample second : e.clientSamples())
                    {
                        // A client sample's time is its second's end.
                        if (nearest == null
                            || Math.abs(second.tS() - 0.5 - middle) < Math.abs(nearest.tS() - 0.5 - middle))
                        {
                            nearest = second;
                        }
                    }
                    final double delivered = nearest == null ? 0
                        : (nearest.fastMsgsPerS() + nearest.slowMsgsPerS()) * (sample.tS() - previous.tS());
                    if (delivered > 0 && middle >= 0 && middle <= e.measuredS())
                    {
                        xs.add(sample.tS());
                        ys.add((sample.cpuMs() - previous.cpuMs()) * 1e3 / delivered);
                    }
                }
                previous = sample;
            }
            series.add(new TimeSeriesPlot.Series(e.peer() + " " + e.scenario(), xs, ys));
        }
        return new TimeSeriesPlot.Panel("Server CPU time (user + system) per message delivered", "us per message",
            series);
    }

    private static WsResult.Cpu cpu(final WsRound round, final double seconds)
    {
        final SideStats server = round.stats().server();
        final SideStats client = round.stats().client();
        return new WsResult.Cpu(corePercent(server, seconds), kernelPercent(server), server.cpuMicrosPerMessage(),
            corePercent(client, seconds), kernelPercent(client), client.cpuMicrosPerMessage());
    }

    private static Double corePercent(final SideStats side, final double seconds)
    {
        final Long millis = side.cpuMillis();
        return millis == null || seconds <= 0 ? null : millis / (seconds * 10);
    }

    private static Double kernelPercent(final SideStats side)
    {
        final Long millis = side.cpuMillis();
        return millis == null || millis == 0 ? null : 100.0 * side.number("cpu_sys_ms") / millis;
    }

    private static String cpuCell(final Double core, final Double kernel)
    {
        return core == null ? Cells.NOT_AVAILABLE : format("%.0f%% (%.0f%% sys)", core, kernel == null ? 0 : kernel);
    }

    private static WsResult.Latency latency(final Histogram h)
    {
        return new WsResult.Latency(h.getTotalCount(), micros(h.getValueAtPercentile(50)),
            micros(h.getValueAtPercentile(90)), micros(h.getValueAtPercentile(99)), micros(h.getValueAtPercentile(99.9)),
            micros(h.getMaxValue()));
    }

    private static double micros(final long nanos)
    {
        return nanos / 1000.0;
    }
}
