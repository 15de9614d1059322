package io.celer.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders a latency run: the seed's table per peer, and one comparison table, as text or Markdown.
 */
final class LatencyReport
{
    private LatencyReport()
    {
    }

    /**
     * The seed's table for one peer, in the seed's words.
     *
     * @param entry the peer's median round.
     * @param rounds rounds run.
     * @return lines of text.
     */
    static String seedTable(final LatencyRunReport.PeerEntry entry, final int rounds)
    {
        final StringBuilder out = new StringBuilder();
        out.append(entry.peer()).append(" - ").append(entry.description());
        if (rounds > 1)
        {
            out.append(String.format(Locale.ROOT, "  (round %d of %d, the median by p99)", entry.round(), rounds));
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
        for (final LatencyRunReport.Tier tier : entry.percentileTable())
        {
            line(out, "%s%% = [avg: %s, max: %s]", percentile(tier.percentile()), time(tier.avgNs()),
                time(tier.maxNs()));
        }
        if (entry.gcCount() != null)
        {
            line(out, "GC while measuring: client %d, server %d", entry.gcCount().client(),
                entry.gcCount().server());
            line(out, "Allocated per message on the I/O thread: client %s, server %s",
                bytes(entry.allocatedBytesPerMsg().client()), bytes(entry.allocatedBytesPerMsg().server()));
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
     * @param entries  one per peer.
     * @param markdown a Markdown table rather than aligned text.
     * @return the table.
     */
    static String comparison(final List<LatencyRunReport.PeerEntry> entries, final boolean markdown)
    {
        Long floor = null;
        boolean lossy = false;
        for (final LatencyRunReport.PeerEntry e : entries)
        {
            floor = e.peer().equals(Peer.C.id()) ? Long.valueOf(e.p50Ns()) : floor;
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
        final String[][] rows = new String[entries.size()][];
        for (int i = 0; i < rows.length; i++)
        {
            final LatencyRunReport.PeerEntry e = entries.get(i);
            final List<String> row = new ArrayList<>(List.of(e.peer(), micros(e.p50Ns()), micros(e.p90Ns()),
                micros(e.p99Ns()), micros(e.p999Ns()), micros(e.p9999Ns()), micros(e.maxNs()), micros(e.avgNs())));
            if (floor != null)
            {
                row.add(String.format(Locale.ROOT, "%.2fx", (double)e.p50Ns() / Math.max(1, floor)));
            }
            if (lossy)
            {
                row.add(e.lost() == null ? "n/a" : String.format(Locale.ROOT, "%,d", e.lost()));
            }
            row.add(e.gcCount() == null ? "n/a" : e.gcCount().client() + "/" + e.gcCount().server());
            row.add(e.allocatedBytesPerMsg() == null ? "n/a" :
                bytesShort(e.allocatedBytesPerMsg().client()) + "/" + bytesShort(e.allocatedBytesPerMsg().server()));
            rows[i] = row.toArray(new String[0]);
        }
        return Tables.render(header.toArray(new String[0]), rows, markdown);
    }

    /**
     * The Markdown file of a run.
     *
     * @param protocol the run's protocol.
     * @param report   the run.
     * @param pngName  the plot's file name, beside the Markdown file.
     * @return the document.
     */
    static String markdown(final Protocol protocol, final LatencyRunReport report, final String pngName)
    {
        final StringBuilder out = new StringBuilder("# " + protocol.title() + (report.tls() ? " over TLS 1.3" : "")
            + " round-trip latency\n\n");
        out.append(String.format(Locale.ROOT,
            "%,d messages of %d bytes after %,d of warm-up, %d round(s) per peer (median round by p99 shown). "
            + "Started %s, took %.0f s.%n%n", report.messages(), report.size(), report.warmup(), report.rounds(),
            report.started(), report.durationSeconds()));
        out.append("- JDK: ").append(report.jdk()).append('\n');
        out.append("- OS: ").append(report.os()).append(", ").append(report.cpus()).append(" CPUs\n");
        out.append("- Pinning: ").append(report.pinning()).append('\n');
        out.append("- Extra JVM options: ")
            .append(report.jvmOptions().isEmpty() ? "none" : String.join(" ", report.jvmOptions()))
            .append(report.epsilon() ? "; Celer under Epsilon GC" : "").append("\n\n");
        out.append(legend(protocol, report.tls())).append(".\n\n");
        out.append(comparison(report.results(), true)).append('\n');
        out.append("![latency by percentile](").append(pngName).append(")\n\n");
        if (!report.failures().isEmpty())
        {
            out.append("## Failures\n\n");
            for (final String failure : report.failures())
            {
                out.append("- ").append(failure.lines().findFirst().orElse(failure)).append('\n');
            }
            out.append('\n');
        }
        out.append("## Per peer\n\n");
        for (final LatencyRunReport.PeerEntry entry : report.results())
        {
            out.append("```text\n").append(seedTable(entry, report.rounds())).append("```\n\n");
        }
        return out.toString();
    }

    /**
     * A duration the way the seed writes it.
     *
     * @param nanos nanoseconds.
     * @return such as {@code 2.061 micros} or {@code 10.264 millis}.
     */
    static String time(final double nanos)
    {
        return nanos >= 1_000_000
            ? String.format(Locale.ROOT, "%.3f millis", nanos / 1_000_000)
            : String.format(Locale.ROOT, "%.3f micros", nanos / 1_000);
    }

    private static String micros(final double nanos)
    {
        return String.format(Locale.ROOT, nanos >= 100_000 ? "%,.0f" : "%.2f", nanos / 1_000);
    }

    private static String percentile(final double percentile)
    {
        return percentile == Math.rint(percentile) ? Long.toString((long)percentile) : Double.toString(percentile);
    }

    private static String bytes(final Double perMessage)
    {
        return perMessage == null ? "n/a" : String.format(Locale.ROOT, "%.2f bytes", perMessage);
    }

    private static String bytesShort(final Double perMessage)
    {
        return perMessage == null ? "n/a" : String.format(Locale.ROOT, perMessage >= 10 ? "%.0f" : "%.2f",
            perMessage);
    }

    private static void line(final StringBuilder out, final String format, final Object... args)
    {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
