package io.celer.bench.http.tfb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.celer.bench.Refusals;
import io.celer.bench.ResultFields;
import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.Netty42;
import io.celer.bench.harness.ToolRun;
import io.celer.bench.http.tfb.peer.CannedServer;
import io.celer.bench.http.tfb.peer.TfbRoute;

/**
 * Runs {@code bench plaintext} and {@code bench json} for a second per setting, each side in its own process,
 * with Celer's driver and with wrk, and checks what they write; and that wrk's check of the responses catches a
 * wrong one. Speed is never asserted: this machine is shared.
 */
@Tag("bench")
@Timeout(400)
class TfbBenchTest
{
    @TempDir
    Path out;

    @Test
    void plaintextRunMeasuresEachServerPipelined() throws IOException
    {
        // Netty's server on Netty 4.2 too: on its io_uring where the kernel gives it, else on its epoll.
        final String netty42 = Netty42.unavailable(TfbPeer.NETTY42_URING) == null ? "netty42-uring" : "netty42-epoll";
        final JsonNode report = ResultFields.run(out, "latest-plaintext.json", "tfb", "plaintext",
            "--peers", "celer,netty," + netty42, "--connections", "8,32", "--warmup-seconds", "1", "--seconds", "1");
        assertThat(report.get("path").asText()).isEqualTo("/plaintext");
        assertThat(report.get("pipeline_depth").asInt()).isEqualTo(16);
        assertPoints(report, List.of(8, 32), "request", "celer", "netty", netty42);
        assertThat(Files.size(out.resolve("latest-plaintext.png"))).isGreaterThan(5_000);
        assertThat(Files.readString(out.resolve("latest-plaintext.md")))
            .contains("| connections ", "server CPU µs/req", "latest-plaintext.png");
    }

    @Test
    void jsonRunMeasuresEachServer() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-json.json", "tfb", "json",
            "--peers", "celer-spin,vertx", "--connections", "4", "--warmup-seconds", "1", "--seconds", "1");
        assertThat(report.get("path").asText()).isEqualTo("/json");
        assertThat(report.get("pipeline_depth").asInt()).isEqualTo(1);
        assertPoints(report, List.of(4), "request", "celer-spin", "vertx");
    }

    @Test
    void wrkDrivesAfterCheckingTheResponses() throws IOException
    {
        Assumptions.assumeTrue(ToolRun.installed("wrk"), "wrk is not installed");
        final JsonNode report = ResultFields.run(out, "latest-plaintext-wrk.json", "tfb", "plaintext",
            "--driver", "wrk", "--peers", "celer,vertx", "--connections", "8", "--warmup-seconds", "1", "--seconds",
            "1");
        assertThat(report.get("driver").asText()).isEqualTo("wrk");
        assertPoints(report, List.of(8), "pipeline", "celer", "vertx");
    }

    @Test
    void wrksCheckCatchesAWrongResponse() throws IOException
    {
        Assumptions.assumeTrue(ToolRun.installed("wrk"), "wrk is not installed");
        final Path script = TfbRun.script(out);
        try (CannedServer right = new CannedServer(CannedServer.plaintextWith("", ""));
            CannedServer noDate = new CannedServer(
                CannedServer.plaintextWith("Date: Sat, 28 Nov 2026 13:00:00 GMT\r\n", ""));
            CannedServer wrongBody = new CannedServer(CannedServer.plaintextWith("Hello, World!", "Hello, World?")))
        {
            assertThat(TfbRun.checkedResponses(checkRun(right, script), "right", false)).isPositive();
            assertThatThrownBy(() -> TfbRun.checkedResponses(checkRun(noDate, script), "no Date", true))
                .isInstanceOf(BenchException.class).hasMessageContaining("first: no or wrong Date");
            assertThatThrownBy(() -> TfbRun.checkedResponses(checkRun(wrongBody, script), "wrong body", true))
                .isInstanceOf(BenchException.class).hasMessageContaining("first: body Hello, World?");
        }
    }

    @Test
    void badOptionsAreUsageErrors()
    {
        assertThat(Refusals.exitStatus(out, "plaintext", "--depth", "0")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "json", "--connections", "0")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "json", "--peers", "nginx")).isEqualTo(2);
        assertThat(out.resolve("latest-json.json")).doesNotExist();
    }

    private String checkRun(final CannedServer server, final Path script)
    {
        final ToolRun run = ToolRun.run("wrk check", TfbRun.wrk(TfbRoute.PLAINTEXT, true, 2, 1, 16,
            "http://127.0.0.1:" + server.port() + "/plaintext", script), out, Duration.ofSeconds(60));
        assertThat(run.exitValue()).as(run.output()).isZero();
        return run.output();
    }

    private static int depth(final JsonNode report)
    {
        return report.get("pipeline_depth").asInt();
    }

    private static void assertPoints(final JsonNode report, final List<Integer> counts, final String latencyOf,
        final String... peers)
    {
        assertThat(report.get("failures")).isEmpty();
        assertThat(ResultFields.eachResult(report, (peer, entry) ->
        {
            assertThat(entry.get("points")).as(peer).hasSize(counts.size());
            for (int i = 0; i < counts.size(); i++)
            {
                final JsonNode point = entry.get("points").get(i);
                assertThat(point.get("connections").asInt()).as(peer).isEqualTo(counts.get(i));
                assertThat(point.get("requests").asLong()).as(peer).isPositive();
                assertThat(point.get("errors").asLong()).as(peer).isZero();
                assertThat(point.get("requests_per_s").asDouble()).as(peer).isPositive();
                assertThat(point.get("latency_of").asText()).as(peer).isEqualTo(latencyOf);
                assertThat(point.get("percentiles").get(0).get("us").asDouble()).as(peer).isPositive();
                // The server starts counting only when told 'begin', after the driver's 'measuring' line has crossed
                // the harness: on a busy machine it misses an unbounded share of the window's start, so it counts
                // most of what the driver counted rather than all of it. It can answer no more than the driver
                // counted and the requests in flight when the driver stops (every connection's pipeline at most).
                assertThat(point.get("server_requests").asLong()).as(peer)
                    .isGreaterThan(point.get("requests").asLong() / 2)
                    .isLessThanOrEqualTo(point.get("requests").asLong() + 2L * counts.get(i) * depth(report));
                assertThat(point.get("server_cpu_us_per_request").asDouble()).as(peer).isPositive();
                // Its user-space part, counted in 10 ms ticks as the whole is: at most the whole.
                assertThat(point.get("server_user_cpu_us_per_request").asDouble()).as(peer).isNotNegative()
                    .isLessThanOrEqualTo(point.get("server_cpu_us_per_request").asDouble());
                assertThat(point.get("server_cpu_percent").asDouble()).as(peer).isPositive();
                assertThat(point.get("client_cpu_percent").asDouble()).as(peer).isPositive();
                assertThat(point.get("server_gc_count").asLong()).as(peer).isNotNegative();
                assertThat(point.get("server_allocated_bytes_per_request").asDouble()).as(peer).isNotNegative();
            }
        })).containsExactly(peers);
    }
}
