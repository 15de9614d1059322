package io.celer.bench.latency;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.celer.bench.harness.SideFacts;

/**
 * A latency run as written to JSON: its settings (inline after the environment) and one entry per peer (its
 * median round).
 *
 * @param tls        whether the run went over TLS.
 * @param pinning    how the two sides were placed.
 * @param jvmOptions options added to every child JVM.
 * @param epsilon    whether Celer's JVMs ran under Epsilon.
 * @param warmup     warm-up round trips per run.
 * @param messages   measured round trips per run.
 * @param size       message size in bytes.
 * @param rounds     runs per peer.
 */
record LatencyResult(
    boolean tls,
    String pinning,
    List<String> jvmOptions,
    boolean epsilon,
    int warmup,
    int messages,
    int size,
    int rounds)
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
     * @param percentileTable     the CoralReactor-vs-Netty benchmark's table: mean and largest value up to each percentile.
     * @param sides               the processes: collections, allocation, CPUs, JDK and JVM options.
     * @param rounds              every round's headline numbers.
     * @param lost                UDP only: datagrams the client sent again after waiting in vain for their
     *                            echo while measuring (left out for TCP).
     */
    record PeerEntry(
        String peer,
        String description,
        boolean tls,
        long messages,
        int size,
        int round,
        double avgNs,
        long minNs,
        long p50Ns,
        long p90Ns,
        long p99Ns,
        @JsonProperty("p99_9_ns") long p999Ns,
        @JsonProperty("p99_99_ns") long p9999Ns,
        @JsonProperty("p99_999_ns") long p99999Ns,
        long maxNs,
        List<Tier> percentileTable,
        @JsonUnwrapped SideFacts sides,
        List<Round> rounds,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long lost)
    {
    }

    /**
     * A row of the CoralReactor-vs-Netty benchmark's table.
     *
     * @param percentile such as 99.9.
     * @param avgNs      mean of the values up to it.
     * @param maxNs      the value at it.
     */
    record Tier(
        double percentile,
        double avgNs,
        long maxNs)
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
    record Round(
        int round,
        long p50Ns,
        long p99Ns,
        @JsonProperty("p99_99_ns") long p9999Ns,
        long maxNs)
    {
    }
}
