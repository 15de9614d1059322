package io.celer.bench;

import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One tick-to-trade run, as written to JSON: the settings, the in-process and the wire-to-wire percentiles, and
 * what the capture saw.
 *
 * @param benchmark       always {@code tick-to-trade}.
 * @param started         when the run started, ISO-8601.
 * @param durationSeconds how long the whole run took.
 * @param jdk             the JDK.
 * @param os              the kernel.
 * @param cpus            CPUs this process may use.
 * @param transport       how the quotes went: {@code multicast} or {@code unicast}.
 * @param interfaceName   the interface carrying quotes and orders, where the capture ran.
 * @param warmup          quotes before the measured ones, not measured and not captured.
 * @param quotes          measured quotes.
 * @param spacingMicros   pause between measured quotes.
 * @param lost            measured quotes that got no execution within a second.
 * @param malformed       malformed warm-up datagrams the strategy dropped (it must).
 * @param orders          orders the exchange filled, warm-up included.
 * @param wire            {@code captured}, or why there are no wire numbers.
 * @param capture         what the capture saw, null without one.
 * @param results         in-process first, then wire-to-wire when captured.
 */
public record TickToTradeReport(
    @JsonProperty("benchmark") String benchmark,
    @JsonProperty("started") String started,
    @JsonProperty("duration_s") double durationSeconds,
    @JsonProperty("jdk") String jdk,
    @JsonProperty("os") String os,
    @JsonProperty("cpus") int cpus,
    @JsonProperty("transport") String transport,
    @JsonProperty("interface") String interfaceName,
    @JsonProperty("warmup") long warmup,
    @JsonProperty("quotes") long quotes,
    @JsonProperty("spacing_us") long spacingMicros,
    @JsonProperty("lost") long lost,
    @JsonProperty("malformed") long malformed,
    @JsonProperty("orders") long orders,
    @JsonProperty("wire") String wire,
    @JsonProperty("capture") Capture capture,
    @JsonProperty("results") List<Entry> results)
{
    /** What {@link #wire()} says when the capture worked. */
    static final String CAPTURED = "captured";

    /**
     * What the capture saw.
     *
     * @param tshark        tshark's version line.
     * @param timeStampType the time stamp type asked of the interface, null for its default.
     * @param filter        the capture filter.
     * @param frames        frames in the file, probes included.
     * @param quoteFrames   quote datagrams, duplicates (multicast looped back) included.
     * @param orderMessages new orders in the segments, duplicates included.
     * @param quotesSeen    measured quotes whose datagram was captured.
     * @param ordersSeen    measured quotes whose order was captured.
     * @param misordered    order frames stamped before their quote's frame.
     * @param summary       tshark's closing lines.
     */
    public record Capture(
        @JsonProperty("tshark") String tshark,
        @JsonProperty("time_stamp_type") String timeStampType,
        @JsonProperty("filter") String filter,
        @JsonProperty("frames") long frames,
        @JsonProperty("quote_frames") long quoteFrames,
        @JsonProperty("order_messages") long orderMessages,
        @JsonProperty("quotes_seen") long quotesSeen,
        @JsonProperty("orders_seen") long ordersSeen,
        @JsonProperty("misordered") long misordered,
        @JsonProperty("summary") String summary)
    {
    }

    /**
     * One way of measuring, in microseconds.
     *
     * @param measure     {@code in-process} or {@code wire-to-wire}.
     * @param description from where to where.
     * @param matched     quotes measured this way.
     * @param total       quotes that could have been.
     * @param min         the least.
     * @param p50         median.
     * @param p90         90th percentile.
     * @param p99         99th.
     * @param p999        99.9th.
     * @param max         the most.
     * @param mean        the mean.
     */
    public record Entry(
        @JsonProperty("measure") String measure,
        @JsonProperty("description") String description,
        @JsonProperty("matched") long matched,
        @JsonProperty("total") long total,
        @JsonProperty("min_us") double min,
        @JsonProperty("p50_us") double p50,
        @JsonProperty("p90_us") double p90,
        @JsonProperty("p99_us") double p99,
        @JsonProperty("p99_9_us") double p999,
        @JsonProperty("max_us") double max,
        @JsonProperty("mean_us") double mean)
    {
        /**
         * An entry from nanoseconds.
         *
         * @param measure     its name.
         * @param description from where to where.
         * @param nanos       the recorded times.
         * @param total       quotes that could have been recorded.
         * @return the entry in microseconds; zeros when nothing was recorded.
         */
        static Entry of(final String measure, final String description, final Histogram nanos, final long total)
        {
            if (nanos.getTotalCount() == 0)
            {
                return new Entry(measure, description, 0, total, 0, 0, 0, 0, 0, 0, 0);
            }
            return new Entry(measure, description, nanos.getTotalCount(), total, micros(nanos.getMinValue()),
                micros(nanos.getValueAtPercentile(50)), micros(nanos.getValueAtPercentile(90)),
                micros(nanos.getValueAtPercentile(99)), micros(nanos.getValueAtPercentile(99.9)),
                micros(nanos.getMaxValue()), nanos.getMean() / 1000.0);
        }

        private static double micros(final long nanos)
        {
            return nanos / 1000.0;
        }
    }

    /**
     * Both measures side by side.
     *
     * @param entries  in-process, then wire-to-wire.
     * @param markdown a Markdown table rather than aligned text.
     * @return the table.
     */
    static String table(final List<Entry> entries, final boolean markdown)
    {
        final String[] header = {"measure (µs)", "p50", "p90", "p99", "p99.9", "max", "min", "matched/total"};
        final String[][] rows = new String[entries.size()][];
        for (int i = 0; i < rows.length; i++)
        {
            final Entry e = entries.get(i);
            rows[i] = new String[] {e.measure(), us(e.p50()), us(e.p90()), us(e.p99()), us(e.p999()), us(e.max()),
                us(e.min()), String.format(Locale.ROOT, "%,d/%,d", e.matched(), e.total())};
        }
        return Tables.render(header, rows, markdown);
    }

    /**
     * The run as Markdown: settings, the table, what each measure spans and what the capture saw.
     *
     * @param report the run.
     * @return the document.
     */
    static String markdown(final TickToTradeReport report)
    {
        final StringBuilder md = new StringBuilder();
        md.append("# Tick-to-trade\n\n");
        md.append(String.format(Locale.ROOT, "%s; %,d warm-up quotes, then %,d measured %d µs apart, by %s on `%s`. "
            + "JDK %s, %s, %d CPUs. Took %.1f s.%n%n", report.started(), report.warmup(), report.quotes(),
            report.spacingMicros(), report.transport(), report.interfaceName(), report.jdk(), report.os(),
            report.cpus(), report.durationSeconds()));
        md.append(table(report.results(), true)).append('\n');
        for (final Entry e : report.results())
        {
            md.append("- ").append(e.measure()).append(": ").append(e.description()).append('\n');
        }
        md.append('\n').append(summary(report));
        return md.toString();
    }

    /**
     * A few lines on the losses and the capture.
     *
     * @param report the run.
     * @return the lines, each ending with a newline.
     */
    static String summary(final TickToTradeReport report)
    {
        final StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "lost %d, malformed datagrams dropped %d, orders filled %,d%n",
            report.lost(), report.malformed(), report.orders()));
        final Capture c = report.capture();
        if (c == null)
        {
            out.append("wire: ").append(report.wire()).append('\n');
            return out.toString();
        }
        out.append(String.format(Locale.ROOT, "wire: %s with %s (%s time stamps); %,d frames, measured quotes seen "
            + "%,d, their orders seen %,d, order before quote %d%n", report.wire(), c.tshark(),
            c.timeStampType() == null ? "default" : c.timeStampType(), c.frames(), c.quotesSeen(), c.ordersSeen(),
            c.misordered()));
        if (c.summary() != null && !c.summary().isEmpty())
        {
            out.append("tshark: ").append(c.summary()).append('\n');
        }
        return out.toString();
    }

    private static String us(final double micros)
    {
        return String.format(Locale.ROOT, micros >= 100 ? "%,.0f" : "%.2f", micros);
    }
}
