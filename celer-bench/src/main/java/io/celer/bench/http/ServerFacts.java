package io.celer.bench.http;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

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
 * @param jdk                      its {@code java.runtime.version}; not written per point.
 */
record ServerFacts(
    @JsonProperty("server_requests") long served,
    @JsonProperty("server_gc_count") Long gcCount,
    @JsonProperty("server_allocated_bytes_per_request") Double allocatedBytesPerRequest,
    @JsonProperty("server_allocation_scope") String allocationScope,
    @JsonProperty("server_cpu_percent") Double cpuPercent,
    @JsonIgnore String jdk)
{
    /**
     * Reads a server's stats.
     *
     * @param stats what it printed after the measured phase.
     * @return the facts.
     */
    static ServerFacts of(final SideStats stats)
    {
        return new ServerFacts(stats.messages(), stats.gcCount(), stats.allocatedPerMessage(),
            stats.values().get("scope"), stats.cpuPercent(), stats.jdk());
    }
}
