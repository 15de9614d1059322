package io.celer.bench.ticktotrade;

import static io.celer.bench.harness.Cells.format;

import java.util.List;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.celer.bench.harness.Cells;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Result;
import io.celer.bench.harness.Table;

/**
 * A tick-to-trade run as written to JSON: its settings and what the capture saw (inline after the environment),
 * then the in-process and the wire-to-wire percentiles; and the run's table and report.
 *
 * @param transport     how the quotes went: {@code multicast} or {@code unicast}.
 * @param interfaceName the interface carrying quotes and orders, where the capture ran.
 * @param warmup        quotes before the measured ones, not measured and not captured.
 * @param quotes        measured quotes.
 * @param spacingMicros pause between measured quotes.
 * @param lost          measured quotes that got no execution within a second.
 * @param malformed     malformed warm-up datagrams the strategy dropped (it must).
 * @param orders        orders the exchange filled, warm-up included.
 * @param wire          {@code captured}, or why there are no wire numbers.
 * @param capture       what the capture saw, null without one.
 */
record TickToTradeReport(
    String transport,
    @JsonProperty("interface") String interfaceName,
    long warmup,
    long quotes,
    @JsonProperty("spacing_us") long spacingMicros,
    long lost,
    long malformed,
    long orders,
    String wire,
    Capture capture)
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
    record Capture(
        String tshark,
        String timeStampType,
        String filter,
        long frames,
        long quoteFrames,
        long orderMessages,
        long quotesSeen,
        long ordersSeen,
        long misordered,
        String summary)
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
    record Entry(
        String measure,
        String description,
        long matched,
        long total,
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
     * The report of a run.
     *
     * @param settings what ran and what the capture saw.
     * @param result   what it measured.
     * @return the report.
     */
    @SuppressWarnings("unchecked")
    static Report report(final TickToTradeReport settings, final Result result)
    {
        final List<Entry> entries = (List<Entry>)result.results();
        final Table table = Table.of(List.of("measure (µs)", "p50", "p90", "p99", "p99.9", "max", "min",
            "matched/total"), entries, e -> List.of(e.measure(), Cells.micros(e.p50()), Cells.micros(e.p90()),
                Cells.micros(e.p99()), Cells.micros(e.p999()), Cells.micros(e.max()), Cells.micros(e.min()),
                format("%,d/%,d", e.matched(), e.total())));
        final StringBuilder measures = new StringBuilder();
        for (final Entry e : entries)
        {
            measures.append("- ").append(e.measure()).append(": ").append(e.description()).append('\n');
        }
        return Report.of("tick-to-trade", result, table)
            .title("Tick-to-trade")
            .intro(format("%,d warm-up quotes, then %,d measured %d µs apart, by %s on `%s`.",
                settings.warmup(), settings.quotes(), settings.spacingMicros(), settings.transport(),
                settings.interfaceName()))
            .notes(summary(settings))
            .section("Measures", measures.toString());
    }

    /**
     * A few lines on the losses and the capture.
     *
     * @param report the run.
     * @return the lines, each ending with a newline.
     */
    private static String summary(final TickToTradeReport report)
    {
        final StringBuilder out = new StringBuilder();
        out.append(format("lost %d, malformed datagrams dropped %d, orders filled %,d%n",
            report.lost(), report.malformed(), report.orders()));
        final Capture c = report.capture();
        if (c == null)
        {
            out.append("wire: ").append(report.wire()).append('\n');
            return out.toString();
        }
        out.append(format("wire: %s with %s (%s time stamps); %,d frames, measured quotes seen "
            + "%,d, their orders seen %,d, order before quote %d%n", report.wire(), c.tshark(),
            c.timeStampType() == null ? "default" : c.timeStampType(), c.frames(), c.quotesSeen(), c.ordersSeen(),
            c.misordered()));
        if (c.summary() != null && !c.summary().isEmpty())
        {
            out.append("tshark: ").append(c.summary()).append('\n');
        }
        return out.toString();
    }
}
