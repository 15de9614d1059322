package io.celer.bench.http;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.celer.bench.harness.BenchException;

/**
 * What one {@code wrk --latency} run printed: its rate, its count, its errors and its latency distribution.
 *
 * @param requests          requests completed.
 * @param requestsPerSecond wrk's {@code Requests/sec}.
 * @param meanUs            the mean latency in microseconds.
 * @param errors            socket errors (connect, read, write, timeout) and non-2xx/3xx responses.
 * @param percentiles       wrk's {@code Latency Distribution}, in microseconds.
 */
public record WrkOutput(long requests, double requestsPerSecond, double meanUs, long errors,
    List<HttpPoint.Percentile> percentiles)
{
    private static final Pattern DISTRIBUTION = Pattern.compile("(?m)^\\s+(\\d+(?:\\.\\d+)?)%\\s+([0-9.]+)(us|ms|s)\\s*$");
    private static final Pattern MEAN = Pattern.compile("(?m)^\\s+Latency\\s+([0-9.]+)(us|ms|s)");
    private static final Pattern COUNT = Pattern.compile("(?m)^\\s*(\\d+) requests in ");
    private static final Pattern RATE = Pattern.compile("(?m)^Requests/sec:\\s+([0-9.]+)");
    private static final Pattern SOCKET_ERRORS =
        Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    /**
     * Reads wrk's report.
     *
     * @param text everything wrk printed.
     * @return the figures.
     * @throws BenchException if the report lacks a rate or a count.
     */
    public static WrkOutput parse(final String text)
    {
        final List<HttpPoint.Percentile> percentiles = new ArrayList<>();
        final int table = text.indexOf("Latency Distribution");
        if (table >= 0)
        {
            final Matcher row = DISTRIBUTION.matcher(text.substring(table));
            while (row.find())
            {
                percentiles.add(new HttpPoint.Percentile(Double.parseDouble(row.group(1)),
                    micros(row.group(2), row.group(3))));
            }
        }
        final Matcher count = find(COUNT, text, "requests in");
        final Matcher rate = find(RATE, text, "Requests/sec");
        final Matcher mean = find(MEAN, text, "Latency");
        long errors = 0;
        final Matcher socket = SOCKET_ERRORS.matcher(text);
        if (socket.find())
        {
            for (int i = 1; i <= 4; i++)
            {
                errors += Long.parseLong(socket.group(i));
            }
        }
        final Matcher non2xx = NON_2XX.matcher(text);
        if (non2xx.find())
        {
            errors += Long.parseLong(non2xx.group(1));
        }
        return new WrkOutput(Long.parseLong(count.group(1)), Double.parseDouble(rate.group(1)),
            micros(mean.group(1), mean.group(2)), errors, List.copyOf(percentiles));
    }

    private static Matcher find(final Pattern pattern, final String text, final String what)
    {
        final Matcher found = pattern.matcher(text);
        if (!found.find())
        {
            throw new BenchException("wrk printed no '" + what + "' line:\n" + text);
        }
        return found;
    }

    private static double micros(final String value, final String unit)
    {
        final double number = Double.parseDouble(value);
        return "s".equals(unit) ? number * 1e6 : "ms".equals(unit) ? number * 1e3 : number;
    }
}
