package io.celer.bench.http;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import org.HdrHistogram.Histogram;

import io.celer.bench.harness.Cells;

/**
 * One connection count of {@code bench http} on one server: the driver's rate and latencies, and what each side
 * said of its measured phase.
 *
 * @param connections              keep-alive connections, one request in flight each.
 * @param requests                 requests answered while measured, as the driver counted them.
 * @param errors                   failed requests and non-200 responses the driver saw.
 * @param requestsPerSecond        answered requests per second.
 * @param meanUs                   mean latency, send to whole response, in microseconds.
 * @param percentiles              latency percentiles in microseconds.
 * @param clientGcCount            collections in the client's JVM while measured; null for wrk.
 * @param clientAllocatedPerRequest bytes the client's reactor allocated per request; null for wrk.
 * @param clientCpu                the driver's share of its core, percent; near 100, the driver rather than the
 *                                 server set the rate.
 * @param clientCpuPerRequest      the driver's CPU time, user and kernel, per request, in microseconds.
 * @param server                   the server's own figures.
 */
public record HttpPoint(
    int connections,
    long requests,
    long errors,
    @JsonProperty("requests_per_s") double requestsPerSecond,
    double meanUs,
    List<Percentile> percentiles,
    Long clientGcCount,
    @JsonProperty("client_allocated_bytes_per_request") Double clientAllocatedPerRequest,
    @JsonProperty("client_cpu_percent") Double clientCpu,
    @JsonProperty("client_cpu_us_per_request") Double clientCpuPerRequest,
    @JsonUnwrapped ServerFacts server) implements Sweep.Point
{
    /**
     * One latency percentile.
     *
     * @param percentile such as 99.9.
     * @param us         the latency at it, in microseconds.
     */
    public record Percentile(double percentile, double us)
    {
        /**
         * A histogram's latencies at percentiles.
         *
         * @param histogram   latencies in nanoseconds.
         * @param percentiles such as 50 and 99.9.
         * @return one per percentile, in microseconds.
         */
        public static List<Percentile> of(final Histogram histogram, final double... percentiles)
        {
            final Percentile[] at = new Percentile[percentiles.length];
            for (int i = 0; i < percentiles.length; i++)
            {
                at[i] = new Percentile(percentiles[i], histogram.getValueAtPercentile(percentiles[i]) / 1e3);
            }
            return List.of(at);
        }

        /**
         * The latency at a percentile of a list.
         *
         * @param percentiles the measured ones.
         * @param percentile  such as 99.
         * @return microseconds, or null when not measured at that percentile.
         */
        public static Double at(final List<Percentile> percentiles, final double percentile)
        {
            for (final Percentile p : percentiles)
            {
                if (p.percentile() == percentile)
                {
                    return p.us();
                }
            }
            return null;
        }

        /**
         * A latency as the tables show it.
         *
         * @param us microseconds, or null.
         * @return such as {@code 12.5} or {@code 1,204}, or n/a.
         */
        public static String cell(final Double us)
        {
            return us == null ? Cells.NOT_AVAILABLE : Cells.format(us >= 100 ? "%,.0f" : "%.1f", us);
        }
    }

    @Override
    public int setting()
    {
        return connections;
    }

    @Override
    public double rate()
    {
        return requestsPerSecond;
    }

    @Override
    public String serverJdk()
    {
        return server.jdk();
    }

    @Override
    public Double serverCpuPerRequest()
    {
        return server.cpuMicrosPerRequest();
    }

    /**
     * The latency at a percentile.
     *
     * @param percentile such as 99.
     * @return microseconds, or null when not measured at that percentile.
     */
    Double at(final double percentile)
    {
        return Percentile.at(percentiles, percentile);
    }
}
