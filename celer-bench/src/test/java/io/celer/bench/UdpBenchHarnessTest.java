package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine;

/**
 * Runs {@code bench udp}, every peer in its own processes, on a few thousand datagrams, and checks that what it
 * writes is sane. Speed is never asserted: this machine is shared.
 */
class UdpBenchHarnessTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path out;

    @Test
    void udpLatencyRunCoversEveryPeerWithSaneNumbers() throws IOException
    {
        final int exit = Bench.commandLine().execute("udp", "--warmup", "2000", "--messages", "3000",
            "--rounds", "1", "--out", out.toString());
        assertThat(exit).isZero();

        final JsonNode report = JSON.readTree(out.resolve("latest-udp.json").toFile());
        ResultFields.assertDocumented(report, "udp");
        assertThat(report.get("benchmark").asText()).isEqualTo("udp-latency");
        assertThat(report.get("failures")).isEmpty();
        final List<String> peers = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String peer = entry.get("peer").asText();
            peers.add(peer);
            assertThat(entry.get("messages").asLong()).as(peer).isEqualTo(3000);
            assertThat(entry.get("size").asInt()).as(peer).isEqualTo(256);
            final long[] ladder = {entry.get("min_ns").asLong(), entry.get("p50_ns").asLong(),
                entry.get("p90_ns").asLong(), entry.get("p99_ns").asLong(), entry.get("p99_9_ns").asLong(),
                entry.get("p99_99_ns").asLong(), entry.get("max_ns").asLong()};
            assertThat(ladder[0]).as(peer + " min").isPositive();
            assertThat(ladder).as(peer + " min, p50, p90, p99, p99.9, p99.99, max").isSorted();
            assertThat(entry.get("percentile_table")).as(peer).hasSize(6);
            // Losses are possible on a loaded machine; what matters is that they are counted, not how many.
            assertThat(entry.get("lost").asLong()).as(peer + " lost").isNotNegative();
            if (peer.equals("c"))
            {
                assertThat(entry.get("gc_count").isNull()).isTrue();
            }
            else
            {
                assertThat(entry.get("allocated_bytes_per_msg").get("client").asDouble()).as(peer).isNotNegative();
                assertThat(entry.get("jdk").asText()).as(peer).isNotBlank();
            }
        }
        assertThat(peers).containsExactly("celer", "celer-poll", "netty-nio", "netty-epoll", "netty-epoll-busy", "c");

        try (Stream<Path> files = Files.list(out))
        {
            assertThat(files.map(p -> p.getFileName().toString()))
                .anyMatch(name -> name.matches("udp-\\d{8}-\\d{6}\\.json"))
                .anyMatch(name -> name.matches("udp-\\d{8}-\\d{6}\\.md"))
                .anyMatch(name -> name.matches("udp-\\d{8}-\\d{6}\\.png"));
        }
        assertThat(out.resolve("latest-udp.png")).exists();
        assertThat(Files.readString(out.resolve("latest-udp.md")))
            .contains("# UDP round-trip latency", "| peer", "p50/C", "lost", "latest-udp.png");
    }

    @Test
    void everyClientSendsAgainWhenAnEchoIsLostAndCountsIt() throws IOException
    {
        // The servers leave every 200th datagram without an echo: a client that waited forever would hang here.
        final int exit = Bench.commandLine().execute("udp", "--warmup", "500", "--messages", "1000",
            "--rounds", "1", "--drop-every", "200", "--out", out.toString());
        assertThat(exit).isZero();

        final JsonNode report = JSON.readTree(out.resolve("latest-udp.json").toFile());
        ResultFields.assertDocumented(report, "udp");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("results")).hasSize(6);
        for (final JsonNode entry : report.get("results"))
        {
            final String peer = entry.get("peer").asText();
            assertThat(entry.get("messages").asLong()).as(peer).isEqualTo(1000);
            assertThat(entry.get("lost").asLong()).as(peer + " lost while measuring").isPositive();
        }
    }

    @Test
    void peersWithoutAUdpSideAndOversizedDatagramsAreUsageErrors()
    {
        final CommandLine bad = Bench.commandLine();
        bad.setErr(new PrintWriter(new StringWriter()));
        assertThat(bad.execute("udp", "--peers", "blocking", "--out", out.toString())).isEqualTo(2);
        assertThat(bad.execute("udp", "--size", "65508", "--out", out.toString())).isEqualTo(2);
        assertThat(out.resolve("latest-udp.json")).doesNotExist();
    }
}
