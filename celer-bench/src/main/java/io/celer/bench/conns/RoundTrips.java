package io.celer.bench.conns;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The fresh client's timed round trips, in microseconds.
 *
 * @param count how many.
 * @param p50   the median.
 * @param p99   the 99th percentile.
 * @param max   the longest.
 */
record RoundTrips(
    long count,
    @JsonProperty("p50_us") double p50,
    @JsonProperty("p99_us") double p99,
    @JsonProperty("max_us") double max)
{
    /**
     * Reads the client's line.
     *
     * @param line {@code round-trips count=N p50_ns=A p99_ns=B max_ns=C}.
     * @return the figures.
     */
    static RoundTrips parse(final String line)
    {
        final KeyValues values = KeyValues.of(line);
        return new RoundTrips(values.number("count"), values.number("p50_ns") / 1e3, values.number("p99_ns") / 1e3,
            values.number("max_ns") / 1e3);
    }
}
