package io.celer.bench.http;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.celer.bench.harness.BenchException;

/**
 * What one ab run printed: its counts, its rate and its table of percentiles.
 *
 * @param complete          requests completed.
 * @param failed            ab's {@code Failed requests} (connect, length, exception).
 * @param non2xx            responses with a status outside 2xx (0 when ab prints no such line).
 * @param requestsPerSecond ab's mean rate.
 * @param meanMs            ab's mean time per request, as one client sees it.
 * @param percentiles       ab's {@code Percentage of the requests served within} table.
 */
record AbOutput(
    long complete,
    long failed,
    @JsonProperty("non_2xx") long non2xx,
    @JsonProperty("requests_per_s") double requestsPerSecond,
    @JsonProperty("mean_ms") double meanMs,
    List<Percentile> percentiles)
{
    private static final Pattern PERCENTILE = Pattern.compile("(?m)^\\s*(\\d+(?:\\.\\d+)?)%\\s+(\\d+)");

    /**
     * One row of ab's percentile table.
     *
     * @param percentile such as 99.
     * @param ms         the time within which that share of requests was served, in whole milliseconds.
     */
    record Percentile(double percentile, long ms)
    {
    }

    /**
     * Reads ab's report.
     *
     * @param text everything ab printed.
     * @return the figures.
     * @throws BenchException if the report lacks a rate or a count.
     */
    static AbOutput parse(final String text)
    {
        final List<Percentile> percentiles = new ArrayList<>();
        final int table = text.indexOf("Percentage of the requests served within");
        if (table >= 0)
        {
            final Matcher row = PERCENTILE.matcher(text.substring(table));
            while (row.find())
            {
                percentiles.add(new Percentile(Double.parseDouble(row.group(1)), Long.parseLong(row.group(2))));
            }
        }
        return new AbOutput(number(text, "Complete requests:", true).longValue(),
            number(text, "Failed requests:", true).longValue(), number(text, "Non-2xx responses:", false).longValue(),
            number(text, "Requests per second:", true).doubleValue(),
            number(text, "Time per request:", true).doubleValue(), List.copyOf(percentiles));
    }

    /**
     * The time within which a share of the requests was served.
     *
     * @param percentile such as 99.
     * @return milliseconds, or null when ab printed no such row.
     */
    Long at(final double percentile)
    {
        for (final Percentile p : percentiles)
        {
            if (p.percentile() == percentile)
            {
                return p.ms();
            }
        }
        return null;
    }

    private static Number number(final String text, final String label, final boolean required)
    {
        final Matcher found = Pattern.compile("(?m)^" + Pattern.quote(label) + "\\s+([0-9.]+)").matcher(text);
        if (found.find())
        {
            return Double.valueOf(found.group(1));
        }
        if (required)
        {
            throw new BenchException("ab printed no '" + label + "' line:\n" + tail(text));
        }
        return 0;
    }

    private static String tail(final String text)
    {
        final String[] lines = text.split("\n");
        return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 15), lines.length));
    }
}
