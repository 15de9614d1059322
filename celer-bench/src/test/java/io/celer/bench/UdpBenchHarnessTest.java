package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Runs {@code bench udp}, every peer in its own processes, on a few thousand datagrams of which the servers leave
 * some without an echo, and checks that what it writes is sane and the losses counted. Speed is never asserted: this
 * machine is shared.
 */
@Tag("bench")
class UdpBenchHarnessTest
{
    @TempDir
    Path out;

    @Test
    void udpLatencyRunCoversEveryPeerWithSaneNumbersAndEveryClientSendsAgainWhatIsLost() throws IOException
    {
        // The servers leave every 200th datagram without an echo: a client that waited forever would hang here, one
        // that did not count it would report no loss. One run proves the report and the resends both: a peer's run
        // costs two JVMs' start, whatever it measures.
        final JsonNode report = ResultFields.run(out, "latest-udp.json", "udp",
            "udp", "--warmup", "500", "--messages", "2000", "--rounds", "1", "--drop-every", "200");
        assertThat(report.get("benchmark").asText()).isEqualTo("udp-latency");
        final List<String> peers = LatencyChecks.assertSaneEntries(report, 2000);
        for (final JsonNode entry : report.get("results"))
        {
            final String peer = entry.get("peer").asText();
            assertThat(entry.get("lost").asLong()).as(peer + " lost while measuring").isPositive();
        }
        final List<String> expected = new java.util.ArrayList<>(List.of("celer", "celer-poll", "celer-epoll",
            "celer-epoll-poll", "netty-nio", "netty-epoll", "netty-epoll-busy", "c"));
        if (io.celer.bench.harness.NativeTransport.unavailable() != null)
        {
            expected.remove("celer-epoll");
            expected.remove("celer-epoll-poll");
        }
        assertThat(peers).containsExactlyElementsOf(expected);

        ResultFields.assertDatedFiles(out, "udp", "json", "md", "png");
        assertThat(out.resolve("latest-udp.png")).exists();
        assertThat(Files.readString(out.resolve("latest-udp.md")))
            .contains("# UDP round-trip latency", "| peer", "p50/C", "lost", "latest-udp.png");
    }

    @Test
    void peersWithoutAUdpSideAndOversizedDatagramsAreUsageErrors()
    {
        assertThat(Refusals.exitStatus(out, "udp", "--peers", "blocking")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "udp", "--size", "65508")).isEqualTo(2);
        assertThat(out.resolve("latest-udp.json")).doesNotExist();
    }
}
