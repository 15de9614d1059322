package io.celer.bench.http;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.celer.bench.harness.Cells;
import io.celer.bench.harness.LoopShares;
import io.celer.bench.harness.SideStats;

/**
 * What a server said of its measured phase, from its stats line.
 *
 * @param served                   requests it answered while measured.
 * @param gcCount                  collections in its JVM while measured.
 * @param allocatedBytesPerRequest bytes allocated per request answered.
 * @param allocationScope          whose allocation: {@code io-thread} (an event loop's or reactor's own) or
 *                                 {@code all-threads} (servers that answer on many threads).
 * @param cpuPercent               its process's CPU over the measure, percent of one core; null if not told.
 * @param cpuMicrosPerRequest      its process's CPU time, user and kernel, over the measure per request it
 *                                 answered, in microseconds; null if not told.
 * @param userCpuMicrosPerRequest  the user-space part of it; null if not told.
 * @param loops                    its reactors or event loops; null for a server of a thread pool or threads.
 * @param loopRequestsPercent      each loop's share of the requests it answered, percent; null without loops.
 * @param loopConnectionsPercent   each loop's share of the connections, by the most each held at once while
 *                                 measured, percent; null where the server does not tell (only Celer does).
 * @param jdk                      its {@code java.runtime.version}; not written per point.
 */
record ServerFacts(
    @JsonProperty("server_requests") long served,
    @JsonProperty("server_gc_count") Long gcCount,
    @JsonProperty("server_allocated_bytes_per_request") Double allocatedBytesPerRequest,
    @JsonProperty("server_allocation_scope") String allocationScope,
    @JsonProperty("server_cpu_percent") Double cpuPercent,
    @JsonProperty("server_cpu_us_per_request") Double cpuMicrosPerRequest,
    @JsonProperty("server_user_cpu_us_per_request") Double userCpuMicrosPerRequest,
    @JsonProperty("server_loops") Integer loops,
    @JsonProperty("server_loop_requests_percent") List<Double> loopRequestsPercent,
    @JsonProperty("server_loop_connections_percent") List<Double> loopConnectionsPercent,
    @JsonIgnore String jdk)
{
    /**
     * Each loop's share of the requests, then of the connections, as the tables show them.
     *
     * @return such as {@code req 51/49, conn 50/50}, or n/a for a server without loops.
     */
    String spreadCell()
    {
        return loops == null ? Cells.NOT_AVAILABLE : "req " + LoopShares.cell(loopRequestsPercent) + ", conn "
            + LoopShares.cell(loopConnectionsPercent);
    }

    /**
     * Reads a server's stats.
     *
     * @param stats what it printed after the measured phase.
     * @return the facts.
     */
    static ServerFacts of(final SideStats stats)
    {
        return new ServerFacts(stats.messages(), stats.gcCount(), stats.allocatedPerMessage(),
            stats.values().get("scope"), stats.cpuPercent(), stats.cpuMicrosPerMessage(),
            stats.userCpuMicrosPerMessage(), LoopShares.loops(stats), LoopShares.percent(stats, "messages"),
            LoopShares.percent(stats, "peak_connections"), stats.jdk());
    }
}
