package io.celer.examples.stat;

import java.io.PrintStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.celer.counters.CounterType;
import io.celer.counters.CounterValue;
import io.celer.counters.CountersReader;
import io.celer.counters.HistogramSnapshot;

/**
 * The table {@code ./celer stat} prints each interval, as AeronStat does: every counter, its value, and for a
 * total its rate per second since the last table; a histogram as its count and percentiles.
 */
final class StatTable
{
    private final Map<String, Long> previous = new HashMap<>();
    private long previousNanos;

    /**
     * Prints one table.
     *
     * @param reader the process's counters.
     * @param out    where to print.
     * @param nowNanos the time of the snapshot.
     */
    void print(final CountersReader reader, final PrintStream out, final long nowNanos)
    {
        final List<CounterValue> values = reader.snapshot();
        final double seconds = previousNanos == 0 ? 0 : (nowNanos - previousNanos) / 1e9;
        out.printf("%s - pid %d%s - %d counters%n", Instant.now(), reader.pid(),
            reader.isWriterAlive() ? "" : " - STALE: the process is gone, these are its last values",
            values.size());
        out.printf("%5s %-70s %20s %14s%n", "id", "counter", "value", "per second");
        for (final CounterValue value : values)
        {
            final String key = value.id() + " " + value.label();
            if (value.type() == CounterType.HISTOGRAM)
            {
                final HistogramSnapshot h = value.histogram();
                out.printf("%5d %-70s %20s%n", value.id(), value.label(), String.format("n=%d p50=%s p99=%s " +
                    "p99.9=%s max=%s", h.count(), micros(h.percentile(50)), micros(h.percentile(99)),
                    micros(h.percentile(99.9)), micros(h.max())));
                continue;
            }
            final Long before = previous.put(key, value.value());
            final String rate = value.type() == CounterType.TOTAL && before != null && seconds > 0 ?
                String.format("%,.0f", (value.value() - before) / seconds) : "";
            out.printf("%5d %-70s %,20d %14s%n", value.id(), value.label(), value.value(), rate);
        }
        out.println();
        previousNanos = nowNanos;
    }

    private static String micros(final long nanos)
    {
        return String.format("%.1fus", nanos / 1e3);
    }
}
