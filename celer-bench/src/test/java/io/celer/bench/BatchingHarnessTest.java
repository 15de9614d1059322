package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Runs {@code bench batching}, server and client in their own processes, on a few thousand messages, and
 * checks that the server counted exactly what the producers published, also when it stops reading for a while.
 * Speed is never asserted: this machine is shared.
 */
@Tag("bench")
class BatchingHarnessTest
{
    @TempDir
    Path out;

    @Test
    void everyVariantDeliversExactlyWhatWasPublished() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-batching.json", "batching",
            "batching", "--warmup", "2000", "--messages", "20000", "--rounds", "1");
        assertThat(report.get("benchmark").asText()).isEqualTo("tcp-batching");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("producers").asInt()).isEqualTo(1);
        assertThat(report.get("frame_bytes").asInt()).isEqualTo(31);
        final List<String> variants = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String variant = entry.get("variant").asText();
            variants.add(variant);
            assertDelivered(entry, 22_000);
            assertThat(entry.get("messages").asLong()).as(variant).isEqualTo(20_000);
            assertThat(entry.get("msgs_per_s").asDouble()).as(variant).isPositive();
            assertThat(entry.get("bytes_per_s").asDouble()).as(variant)
                .isEqualTo(entry.get("msgs_per_s").asDouble() * 31, org.assertj.core.data.Offset.offset(1.0));
            assertThat(entry.get("avg_batch").asDouble()).as(variant).isGreaterThanOrEqualTo(1);
        }
        assertThat(variants).containsExactly("celer-batched", "celer-per-message", "netty-batched",
            "netty-per-message");
        assertThat(report.get("speedups").get("celer").asDouble()).isPositive();
        assertThat(report.get("speedups").get("netty").asDouble()).isPositive();

        ResultFields.assertDatedFiles(out, "batching", "json", "md");
        assertThat(Files.readString(out.resolve("latest-batching.md"))).contains("# TCP batching", "| variant",
            "celer: batched is");
    }

    @Test
    void aServerThatStopsReadingHoldsTheClientsBackAndNothingIsLost() throws IOException
    {
        // Small socket buffers and a server that sleeps: the connection lags, the I/O thread stops draining,
        // the ring fills and two producers wait, and every message still arrives exactly once. The stall is long
        // enough for producers still being compiled on a loaded machine to fill the buffers.
        final JsonNode report = ResultFields.run(out, "latest-batching.json", "batching",
            "batching", "--producers", "2", "--warmup", "0", "--messages", "100000", "--socket-buffers", "65536",
            "--stall-server", "2500", "--rounds", "1");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("results")).hasSize(4);
        for (final JsonNode entry : report.get("results"))
        {
            assertDelivered(entry, 100_000);
            assertThat(entry.get("pauses").asLong()).as(entry.get("variant").asText() + " pauses").isPositive();
        }
    }

    @Test
    void badInputIsAUsageError()
    {
        assertThat(Refusals.exitStatus(out, "batching", "--producers", "0")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "batching", "--variants", "celer-batched,nope")).isEqualTo(2);
        assertThat(out.resolve("latest-batching.json")).doesNotExist();
    }

    private static void assertDelivered(final JsonNode entry, final long total)
    {
        final String variant = entry.get("variant").asText();
        assertThat(entry.get("published").asLong()).as(variant + " published").isEqualTo(total);
        assertThat(entry.get("received").asLong()).as(variant + " counted by the server").isEqualTo(total);
    }
}
