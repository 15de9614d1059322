package io.celer.examples.stat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.celer.counters.CounterType;
import io.celer.counters.CounterValue;
import io.celer.counters.HistogramSnapshot;

/**
 * A process's counters as OpenMetrics text (which Prometheus scrapes): one family per counter name, named
 * {@code celer_} and the name with dots as underscores, the reactor and the tag as labels; a total is a
 * counter ({@code _total}), a gauge a gauge, a histogram a histogram in seconds.
 */
final class OpenMetricsText
{
    /** The content type of the text. */
    static final String CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private OpenMetricsText()
    {
    }

    /**
     * Writes the text.
     *
     * @param values a snapshot.
     * @param pid    the process, a label of every sample.
     * @return the text, ending with {@code # EOF}.
     */
    static String of(final List<CounterValue> values, final long pid)
    {
        final Map<String, List<CounterValue>> families = new LinkedHashMap<>();
        for (final CounterValue value : values)
        {
            families.computeIfAbsent(value.type() + " " + value.name(), k -> new ArrayList<>()).add(value);
        }
        final StringBuilder text = new StringBuilder(values.size() * 96);
        for (final List<CounterValue> family : families.values())
        {
            final CounterValue first = family.get(0);
            final CounterType type = first.type();
            final String name = "celer_" + first.name().replaceAll("[^a-zA-Z0-9_]", "_") +
                (type == CounterType.HISTOGRAM ? "_seconds" : "");
            text.append("# TYPE ").append(name).append(' ')
                .append(type == CounterType.TOTAL ? "counter" : type == CounterType.GAUGE ? "gauge" : "histogram")
                .append('\n');
            for (final CounterValue value : family)
            {
                final String labels = labels(value, pid);
                switch (type)
                {
                    case TOTAL:
                        sample(text, name + "_total", labels, Long.toString(value.value()));
                        break;
                    case GAUGE:
                        sample(text, name, labels, Long.toString(value.value()));
                        break;
                    default:
                        histogram(text, name, labels, value.histogram());
                        break;
                }
            }
        }
        return text.append("# EOF\n").toString();
    }

    private static void histogram(final StringBuilder text, final String name, final String labels,
        final HistogramSnapshot histogram)
    {
        int last = -1;
        for (int i = 0; i < histogram.buckets(); i++)
        {
            if (histogram.bucketCount(i) != 0)
            {
                last = i;
            }
        }
        long cumulative = 0;
        for (int i = 0; i <= last; i++)
        {
            cumulative += histogram.bucketCount(i);
            sample(text, name + "_bucket", labels + ",le=\"" + seconds(histogram.bucketUpperBound(i)) + "\"",
                Long.toString(cumulative));
        }
        sample(text, name + "_bucket", labels + ",le=\"+Inf\"", Long.toString(cumulative));
        sample(text, name + "_count", labels, Long.toString(cumulative));
        sample(text, name + "_sum", labels, seconds(histogram.sum()));
    }

    private static void sample(final StringBuilder text, final String name, final String labels, final String value)
    {
        text.append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }

    private static String labels(final CounterValue value, final long pid)
    {
        final StringBuilder labels = new StringBuilder();
        labels.append("pid=\"").append(pid).append("\",reactor=\"").append(escape(value.scope())).append('"');
        final int equals = value.tag().indexOf('=');
        if (equals > 0)
        {
            labels.append(',').append(value.tag().substring(0, equals).replaceAll("[^a-zA-Z0-9_]", "_"))
                .append("=\"").append(escape(value.tag().substring(equals + 1))).append('"');
        }
        return labels.toString();
    }

    private static String seconds(final long nanos)
    {
        return String.format(Locale.ROOT, "%.9f", nanos / 1e9);
    }

    private static String escape(final String text)
    {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
