package io.celer.bench.http.tfb;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.celer.bench.harness.SideStats;
import io.celer.bench.http.HttpPoint;
import io.celer.bench.http.Sweep;

/**
 * One connection count of a TechEmpower-style benchmark on one server: the driver's rate and latencies, what the
 * server's process cost per request, and each side's collections and allocation.
 *
 * @param connections               keep-alive connections.
 * @param requests                  right responses while measured, as the driver counted them.
 * @param errors                    wrk's socket errors and non-2xx responses (the Celer driver fails the run on
 *                                  any wrong response instead).
 * @param requestsPerSecond         right responses per second.
 * @param latencyOf                 what a latency times: {@code request} (send to whole response, Celer's
 *                                  driver) or {@code pipeline} (wrk: a connection's batch of pipelined requests).
 * @param percentiles               latency percentiles in microseconds.
 * @param clientCpu                 the driver's CPU over the measure, percent of one core.
 * @param clientGcCount             collections in the driver's JVM while measured; null for wrk.
 * @param clientAllocatedPerRequest bytes the driver's reactor allocated per request; null for wrk.
 * @param served                    requests the server answered while measured, by its own count.
 * @param serverCpu                 the server's process CPU over the measure, percent of one core.
 * @param serverCpuPerRequest       the server's process CPU time (user + system) per request it answered, in
 *                                  microseconds.
 * @param serverUserCpuPerRequest   the user-space part of it.
 * @param serverGcCount             collections in the server's JVM while measured.
 * @param serverAllocatedPerRequest bytes the server's event loops or reactors allocated per request.
 * @param jdk                       the server's JDK; not written per point.
 */
record TfbPoint(
    int connections,
    long requests,
    long errors,
    @JsonProperty("requests_per_s") double requestsPerSecond,
    String latencyOf,
    List<HttpPoint.Percentile> percentiles,
    @JsonProperty("client_cpu_percent") Double clientCpu,
    Long clientGcCount,
    @JsonProperty("client_allocated_bytes_per_request") Double clientAllocatedPerRequest,
    @JsonProperty("server_requests") long served,
    @JsonProperty("server_cpu_percent") Double serverCpu,
    @JsonProperty("server_cpu_us_per_request") Double serverCpuPerRequest,
    @JsonProperty("server_user_cpu_us_per_request") Double serverUserCpuPerRequest,
    @JsonProperty("server_gc_count") Long serverGcCount,
    @JsonProperty("server_allocated_bytes_per_request") Double serverAllocatedPerRequest,
    @JsonIgnore String jdk) implements Sweep.Point
{
    /**
     * The server's side of a point, from its stats line.
     *
     * @param stats what the server printed after the measure.
     * @return served, CPU %, CPU µs per request, collections, allocation per request, JDK.
     */
    static Server server(final SideStats stats)
    {
        return new Server(stats.messages(), stats.cpuPercent(), stats.cpuMicrosPerMessage(),
            stats.userCpuMicrosPerMessage(), stats.gcCount(), stats.allocatedPerMessage(), stats.jdk());
    }

    /**
     * The server's figures of a point.
     *
     * @param served              requests it answered while measured.
     * @param cpu                 its CPU, percent of one core.
     * @param cpuPerRequest       its CPU time per request, microseconds.
     * @param userCpuPerRequest   the user-space part of it.
     * @param gcCount             its collections.
     * @param allocatedPerRequest bytes its loops allocated per request.
     * @param jdk                 its JDK.
     */
    record Server(long served, Double cpu, Double cpuPerRequest, Double userCpuPerRequest, Long gcCount,
        Double allocatedPerRequest, String jdk)
    {
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
        return jdk;
    }

    /**
     * The latency at a percentile.
     *
     * @param percentile such as 99.
     * @return microseconds, or null when not measured at that percentile.
     */
    Double at(final double percentile)
    {
        return HttpPoint.Percentile.at(percentiles, percentile);
    }
}
