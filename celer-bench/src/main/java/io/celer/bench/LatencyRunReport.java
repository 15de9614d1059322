package io.celer.bench;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One latency run, as written to JSON: the settings, then one entry per peer (its median round).
 *
 * @param benchmark      {@code tcp-latency} or {@code udp-latency}.
 * @param tls            whether the run went over TLS.
 * @param started        when the run started, ISO-8601.
 * @param durationSeconds how long the whole run took.
 * @param jdk            the harness's JDK, which the Java peers share.
 * @param os             the kernel.
 * @param cpus           CPUs this process may use.
 * @param pinning        how the two sides were placed.
 * @param jvmOptions     options added to every child JVM.
 * @param epsilon        whether Celer's JVMs ran under Epsilon.
 * @param warmup         warm-up round trips per run.
 * @param messages       measured round trips per run.
 * @param size           message size in bytes.
 * @param rounds         runs per peer.
 * @param results        one entry per peer that completed.
 * @param failures       what went wrong with the others.
 */
public record LatencyRunReport(
    @JsonProperty("benchmark") String benchmark,
    @JsonProperty("tls") boolean tls,
    @JsonProperty("started") String started,
    @JsonProperty("duration_s") double durationSeconds,
    @JsonProperty("jdk") String jdk,
    @JsonProperty("os") String os,
    @JsonProperty("cpus") int cpus,
    @JsonProperty("pinning") String pinning,
    @JsonProperty("jvm_options") List<String> jvmOptions,
    @JsonProperty("epsilon") boolean epsilon,
    @JsonProperty("warmup") int warmup,
    @JsonProperty("messages") int messages,
    @JsonProperty("size") int size,
    @JsonProperty("rounds") int rounds,
    @JsonProperty("results") List<PeerEntry> results,
    @JsonProperty("failures") List<String> failures)
{
    /**
     * One peer's median round; latencies are round trips in nanoseconds.
     *
     * @param peer                the peer's name.
     * @param description         what it is.
     * @param tls                 whether it ran over TLS.
     * @param messages            measured round trips.
     * @param size                message size in bytes.
     * @param round               which round this is (from 1).
     * @param avgNs               mean.
     * @param minNs               smallest.
     * @param p50Ns               median.
     * @param p90Ns               90th percentile.
     * @param p99Ns               99th percentile.
     * @param p999Ns              99.9th percentile.
     * @param p9999Ns             99.99th percentile.
     * @param p99999Ns            99.999th percentile.
     * @param maxNs               largest.
     * @param percentileTable     the seed's table: mean and largest value up to each percentile.
     * @param gcCount             collections while measuring, per side; null for the C peer.
     * @param allocatedBytesPerMsg bytes allocated per message on each side's I/O thread; null for C.
     * @param pinnedCpus          each side's CPU, null when not pinned.
     * @param jdk                 the peer's JDK, null for C.
     * @param jvmOptions          the peer's JVM options, empty for C.
     * @param rounds              every round's headline numbers.
     * @param lost                UDP only: datagrams the client sent again after waiting in vain for their
     *                            echo while measuring (left out for TCP).
     */
    public record PeerEntry(
        @JsonProperty("peer") String peer,
        @JsonProperty("description") String description,
        @JsonProperty("tls") boolean tls,
        @JsonProperty("messages") long messages,
        @JsonProperty("size") int size,
        @JsonProperty("round") int round,
        @JsonProperty("avg_ns") double avgNs,
        @JsonProperty("min_ns") long minNs,
        @JsonProperty("p50_ns") long p50Ns,
        @JsonProperty("p90_ns") long p90Ns,
        @JsonProperty("p99_ns") long p99Ns,
        @JsonProperty("p99_9_ns") long p999Ns,
        @JsonProperty("p99_99_ns") long p9999Ns,
        @JsonProperty("p99_999_ns") long p99999Ns,
        @JsonProperty("max_ns") long maxNs,
        @JsonProperty("percentile_table") List<Tier> percentileTable,
        @JsonProperty("gc_count") Sides<Long> gcCount,
        @JsonProperty("allocated_bytes_per_msg") Sides<Double> allocatedBytesPerMsg,
        @JsonProperty("pinned_cpus") Sides<Integer> pinnedCpus,
        @JsonProperty("jdk") String jdk,
        @JsonProperty("jvm_options") List<String> jvmOptions,
        @JsonProperty("rounds") List<Round> rounds,
        @JsonProperty("lost") @JsonInclude(JsonInclude.Include.NON_NULL) Long lost)
    {
    }

    /**
     * A row of the seed's table.
     *
     * @param percentile such as 99.9.
     * @param avgNs      mean of the values up to it.
     * @param maxNs      the value at it.
     */
    public record Tier(
        @JsonProperty("percentile") double percentile,
        @JsonProperty("avg_ns") double avgNs,
        @JsonProperty("max_ns") long maxNs)
    {
    }

    /**
     * One round's headline numbers.
     *
     * @param round  which round, from 1.
     * @param p50Ns  median.
     * @param p99Ns  99th percentile.
     * @param p9999Ns 99.99th percentile.
     * @param maxNs  largest.
     */
    public record Round(
        @JsonProperty("round") int round,
        @JsonProperty("p50_ns") long p50Ns,
        @JsonProperty("p99_ns") long p99Ns,
        @JsonProperty("p99_99_ns") long p9999Ns,
        @JsonProperty("max_ns") long maxNs)
    {
    }
}
