package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the TCP and UDP latency tests check alike: every peer's entry is sane.
 */
final class LatencyChecks
{
    private LatencyChecks()
    {
    }

    /**
     * Checks each entry: its counts, its percentiles in order, and GC and allocation numbers exactly where a JVM ran.
     *
     * @param report   the run's JSON.
     * @param messages measured messages per run.
     * @return the peers, in the order of the entries.
     */
    static List<String> assertSaneEntries(final JsonNode report, final long messages)
    {
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("jdk").asText()).isNotBlank();
        final List<String> peers = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String peer = entry.get("peer").asText();
            peers.add(peer);
            assertThat(entry.get("messages").asLong()).as(peer).isEqualTo(messages);
            assertThat(entry.get("size").asInt()).as(peer).isEqualTo(256);
            final long[] ladder = {entry.get("min_ns").asLong(), entry.get("p50_ns").asLong(),
                entry.get("p90_ns").asLong(), entry.get("p99_ns").asLong(), entry.get("p99_9_ns").asLong(),
                entry.get("p99_99_ns").asLong(), entry.get("max_ns").asLong()};
            assertThat(ladder[0]).as(peer + " min").isPositive();
            assertThat(ladder).as(peer + " min, p50, p90, p99, p99.9, p99.99, max").isSorted();
            assertThat(entry.get("avg_ns").asDouble()).as(peer).isBetween((double)ladder[0], (double)ladder[6]);
            assertThat(entry.get("percentile_table")).as(peer).hasSize(6);
            if (peer.equals("c"))
            {
                assertThat(entry.get("gc_count").isNull()).isTrue();
                assertThat(entry.get("allocated_bytes_per_msg").isNull()).isTrue();
            }
            else
            {
                for (final String side : List.of("client", "server"))
                {
                    assertThat(entry.get("gc_count").get(side).asLong()).as(peer + " " + side).isNotNegative();
                    assertThat(entry.get("allocated_bytes_per_msg").get(side).asDouble())
                        .as(peer + " " + side).isNotNegative();
                }
                assertThat(entry.get("jdk").asText()).as(peer).isNotBlank();
            }
        }
        return peers;
    }
}
