package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine;

/**
 * Runs the whole harness, every peer in its own processes, on a few thousand messages, and checks that what
 * it writes is sane. Speed is never asserted: this machine is shared.
 */
@Tag("bench")
class BenchHarnessTest
{
    private static final byte[] PNG_SIGNATURE = {(byte)0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    @TempDir
    Path out;

    @Test
    void latencyRunCoversEveryPeerWithSaneNumbers() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-tcp.json", "tcp",
            "tcp", "--warmup", "2000", "--messages", "3000", "--rounds", "1");
        final List<String> peers = LatencyChecks.assertSaneEntries(report, 3000);
        // The native peers run where a JDK 22+ and celer-native's jar are found (and for io_uring, a kernel that
        // gives it), and are skipped elsewhere.
        final List<String> expected = new ArrayList<>(List.of("celer", "celer-poll", "celer-epoll",
            "celer-epoll-poll", "celer-uring", "celer-uring-poll", "netty-nio", "netty-epoll", "netty-epoll-busy",
            "netty42-epoll", "netty42-uring", "blocking", "c"));
        if (io.celer.bench.harness.NativeTransport.unavailable() != null)
        {
            expected.remove("celer-epoll");
            expected.remove("celer-epoll-poll");
        }
        if (io.celer.bench.harness.NativeTransport.unavailable(new io.celer.bench.harness.FixedPeer("celer-uring",
            "io_uring", true, io.celer.bench.harness.NativeTransport.URING)) != null)
        {
            expected.remove("celer-uring");
            expected.remove("celer-uring-poll");
        }
        // Netty 4.2's io_uring runs where the kernel gives it; its epoll, as Netty 4.1's, wherever this runs.
        if (io.celer.bench.harness.Netty42.unavailable(io.celer.bench.harness.FixedPeer.netty42("netty42-uring",
            "io_uring", "uring")) != null)
        {
            expected.remove("netty42-uring");
        }
        assertThat(peers).containsExactlyElementsOf(expected);

        ResultFields.assertDatedFiles(out, "tcp", "json", "md", "png");
        final byte[] png = Files.readAllBytes(out.resolve("latest-tcp.png"));
        assertThat(png.length).isGreaterThan(10_000);
        assertThat(java.util.Arrays.copyOf(png, PNG_SIGNATURE.length)).isEqualTo(PNG_SIGNATURE);
        assertThat(Files.readString(out.resolve("latest-tcp.md")))
            .contains("| peer", "netty-epoll-busy", "latest-tcp.png");
    }

    @Test
    void tlsLatencyRunGoesOverTlsAndSkipsThePeersWithout() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-tcp-tls.json", "tcp",
            "tcp", "--tls", "--peers", "celer,celer-poll,netty-nio,c", "--warmup", "1000", "--messages", "2000",
            "--rounds", "1");
        assertThat(report.get("tls").asBoolean()).isTrue();
        assertThat(report.get("failures")).isEmpty();
        final List<String> peers = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String peer = entry.get("peer").asText();
            peers.add(peer);
            assertThat(entry.get("tls").asBoolean()).as(peer).isTrue();
            assertThat(entry.get("description").asText()).as(peer).contains("TLS 1.3");
            assertThat(entry.get("messages").asLong()).as(peer).isEqualTo(2000);
            assertThat(entry.get("min_ns").asLong()).as(peer).isPositive();
            assertThat(entry.get("p50_ns").asLong()).as(peer).isLessThanOrEqualTo(entry.get("max_ns").asLong());
            for (final String side : List.of("client", "server"))
            {
                // The JDK's SSLEngine allocates on every record: only that there is a number is checked.
                assertThat(entry.get("allocated_bytes_per_msg").get(side).asDouble()).as(peer + " " + side)
                    .isNotNegative();
            }
        }
        // The C peer has no TLS: skipped, not failed.
        assertThat(peers).containsExactly("celer", "celer-poll", "netty-nio");
        assertThat(out.resolve("latest-tcp-tls.png")).exists();
        assertThat(Files.readString(out.resolve("latest-tcp-tls.md"))).contains("over TLS 1.3", "latest-tcp-tls.png");
        // A TLS run leaves the plain run's files alone.
        assertThat(out.resolve("latest-tcp.json")).doesNotExist();
    }

    @Test
    void throughputRunReportsARateForCelerAndNetty() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-throughput.json", "throughput",
            "throughput", "--messages", "20000", "--rounds", "1");
        assertThat(report.get("failures")).isEmpty();
        final List<String> peers = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            peers.add(entry.get("peer").asText());
            assertThat(entry.get("messages").asLong()).isEqualTo(20_000);
            assertThat(entry.get("msgs_per_s").asDouble()).isPositive();
            assertThat(entry.get("client_msgs_per_s").asDouble()).isPositive();
        }
        assertThat(peers).containsExactly("celer", "netty-nio");
        assertThat(out.resolve("latest-throughput.md")).exists();
    }

    @Test
    void helpListsTheBenchmarksAndBadInputIsAUsageError()
    {
        final StringWriter help = new StringWriter();
        final CommandLine bench = Bench.commandLine();
        bench.setOut(new PrintWriter(help));
        assertThat(bench.execute("--help")).isZero();
        assertThat(help.toString()).contains("tcp", "udp", "throughput", "batching");

        assertThat(Refusals.exitStatus(out, "tcp", "--peers", "celer,nope")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "tcp", "--size", "4")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "tcp", "--tls", "--peers", "c")).isEqualTo(2);
        assertThat(new File(out.toFile(), "latest-tcp.json")).doesNotExist();
    }
}
