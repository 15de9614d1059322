package io.celer.bench.latency;

import static io.celer.bench.harness.Cells.format;

import java.util.ArrayList;
import java.util.List;

import io.celer.bench.harness.Cells;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.PercentilePlot;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Result;
import io.celer.bench.harness.SideFacts;
import io.celer.bench.harness.Table;

/**
 * Renders a latency run: the CoralReactor-vs-Netty benchmark's table per peer, and one comparison table, as text or Markdown.
 */
final class LatencyReport
{
    private LatencyReport()
    {
    }

    /**
     * The CoralReactor-vs-Netty benchmark's table for one peer, in its words.
     *
     * @param entry the peer's median round.
     * @param rounds rounds run.
     * @return lines of text.
     */
    static String coralTable(final LatencyResult.PeerEntry entry, final int rounds)
    {
        final StringBuilder out = new StringBuilder();
        out.append(entry.peer()).append(" - ").append(entry.description());
        if (rounds > 1)
        {
            out.append(format("  (round %d of %d, the median by p99)", entry.round(), rounds));
        }
        out.append('\n');
        line(out, "Messages: %,d  Message size: %d bytes  (round trip)", entry.messages(), entry.size());
        if (entry.lost() != null)
        {
            line(out, "Lost (sent again after %d ms without an echo): %,d", Protocol.RESEND_AFTER_MILLIS,
                entry.lost());
        }
        line(out, "Avg Time: %s", time(entry.avgNs()));
        line(out, "Min Time: %s", time(entry.minNs()));
        line(out, "Max Time: %s", time(entry.maxNs()));
        line(out, "50%% = %s", time(entry.p50Ns()));
        for (final LatencyResult.Tier tier : entry.percentileTable())
        {
            line(out, "%s%% = [avg: %s, max: %s]", percentile(tier.percentile()), time(tier.avgNs()),
                time(tier.maxNs()));
        }
        final SideFacts sides = entry.sides();
        if (sides.gcCount() != null)
        {
            line(out, "GC while measuring: client %d, server %d", sides.gcCount().client(), sides.gcCount().server());
            line(out, "Allocated per message on the I/O thread: client %s, server %s",
                bytes(sides.allocatedBytesPerMsg().client()), bytes(sides.allocatedBytesPerMsg().server()));
        }
        else
        {
            line(out, "GC and allocation: not applicable (no JVM)");
        }
        return out.toString();
    }

    /**
     * What the comparison table's columns mean.
     *
     * @param protocol the run's protocol.
     * @param tls      whether the run went over TLS.
     * @return one sentence.
     */
    static String legend(final Protocol protocol, final boolean tls)
    {
        return (tls ? "Over TLS 1.3, the JDK's provider on every peer. " : "")
            + "Round trips in microseconds (GC: collections while measuring, client/server; alloc: bytes "
            + "allocated per message on the I/O threads, client/server; p50/C: the median over the C peer's"
            + (protocol.lossy() ? "; lost: datagrams sent again after " + Protocol.RESEND_AFTER_MILLIS
                + " ms without an echo)" : ")");
    }

    /**
     * All peers side by side, latencies in microseconds; with the C peer among them, each median as a multiple
     * of C's.
     *
     * @param entries one per peer.
     * @return the table.
     */
    static Table comparison(final List<LatencyResult.PeerEntry> entries)
    {
        Long floor = null;
        boolean lossy = false;
        for (final LatencyResult.PeerEntry e : entries)
        {
            floor = e.peer().equals(LatencyPeer.C.id()) ? Long.valueOf(e.p50Ns()) : floor;
            lossy |= e.lost() != null;
        }
        final List<String> header = new ArrayList<>(List.of("peer", "p50", "p90", "p99", "p99.9", "p99.99", "max",
            "avg"));
        if (floor != null)
        {
            header.add("p50/C");
        }
        if (lossy)
        {
            header.add("lost");
        }
        header.addAll(List.of("GC c/s", "alloc B/msg c/s"));
        final List<List<String>> rows = new ArrayList<>();
        for (final LatencyResult.PeerEntry e : entries)
        {
            final List<String> row = new ArrayList<>(List.of(e.peer(), micros(e.p50Ns()), micros(e.p90Ns()),
                micros(e.p99Ns()), micros(e.p999Ns()), micros(e.p9999Ns()), micros(e.maxNs()), micros(e.avgNs())));
            if (floor != null)
            {
                row.add(format("%.2fx", (double)e.p50Ns() / Math.max(1, floor)));
            }
            if (lossy)
            {
                row.add(Cells.orNa(e.lost(), "%,d"));
            }
            row.add(e.sides().gcCell());
            row.add(e.sides().allocCell());
            rows.add(row);
        }
        return new Table(header, rows);
    }

    /**
     * The run's title.
     *
     * @param settings the run.
     * @return such as {@code TCP over TLS 1.3}.
     */
    static String title(final RunSettings settings)
    {
        return settings.protocol().title() + (settings.tls() ? " over TLS 1.3" : "");
    }

    /**
     * The run's settings as written to JSON.
     *
     * @param settings the run.
     * @return the settings.
     */
    static LatencyResult settings(final RunSettings settings)
    {
        final PeerLauncher launcher = settings.launcher();
        return new LatencyResult(settings.tls(), launcher.cpus().note(), launcher.extraJvmOptions(),
            launcher.epsilon(), settings.warmup(), settings.messages(), settings.size(), settings.rounds());
    }

    /**
     * The report of a run: the comparison, the plot and the CoralReactor-vs-Netty table per peer.
     *
     * @param settings the run.
     * @param result   what it measured.
     * @param lines    the plot's lines, one per peer.
     * @return the report.
     */
    @SuppressWarnings("unchecked")
    static Report report(final RunSettings settings, final Result result, final List<PercentilePlot.Line> lines)
    {
        final List<LatencyResult.PeerEntry> entries = (List<LatencyResult.PeerEntry>)result.results();
        final PeerLauncher launcher = settings.launcher();
        final StringBuilder perPeer = new StringBuilder();
        for (final LatencyResult.PeerEntry entry : entries)
        {
            perPeer.append("```text\n").append(coralTable(entry, settings.rounds())).append("```\n\n");
        }
        return Report.of(settings.protocol().id() + (settings.tls() ? "-tls" : ""), result, comparison(entries))
            .title(title(settings) + " round-trip latency")
            .intro(format("%,d messages of %d bytes after %,d of warm-up, %d round(s) per peer "
                + "(median round by p99 shown).", settings.messages(), settings.size(), settings.warmup(),
                settings.rounds()))
            .placement("Pinning", launcher.cpus().note(), launcher)
            .legend(legend(settings.protocol(), settings.tls()) + ".")
            .plot(format("%s round trip, %d-byte messages, %,d measured (%s)", title(settings),
                settings.size(), settings.messages(), launcher.cpus().pinned() ? "pinned" : "not pinned"), lines)
            .section("Per peer", perPeer.toString());
    }

    /**
     * A duration the way the CoralReactor-vs-Netty benchmark writes it.
     *
     * @param nanos nanoseconds.
     * @return such as {@code 2.061 micros} or {@code 10.264 millis}.
     */
    static String time(final double nanos)
    {
        return nanos >= 1_000_000
            ? format("%.3f millis", nanos / 1_000_000)
            : format("%.3f micros", nanos / 1_000);
    }

    private static String micros(final double nanos)
    {
        return Cells.micros(nanos / 1_000);
    }

    private static String percentile(final double percentile)
    {
        return percentile == Math.rint(percentile) ? Long.toString((long)percentile) : Double.toString(percentile);
    }

    private static String bytes(final Double perMessage)
    {
        return Cells.orNa(perMessage, "%.2f bytes");
    }

    private static void line(final StringBuilder out, final String pattern, final Object... args)
    {
        out.append(format(pattern, args)).append('\n');
    }
}
