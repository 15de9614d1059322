package io.celer.bench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.celer.bench.Refusals;
import io.celer.bench.ResultFields;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.NativeTransport;
import io.celer.bench.harness.Netty42;

/**
 * Runs {@code bench http} for a second at 1 and 10 connections against Celer and Netty, Celer's HTTP client
 * driving, each side in its own process, and checks what it writes. Speed is never asserted: this machine is
 * shared.
 */
@Tag("bench")
@Timeout(300)
class HttpBenchTest
{
    @TempDir
    Path out;

    @Test
    void pingPongRunMeasuresEachConnectionCountOfEachServer() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-http.json", "http",
            "http", "--peers", "celer,celer-spin,netty", "--connections", "1,10", "--warmup-seconds", "1", "--seconds",
            "1");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("driver").asText()).isEqualTo("celer");
        final List<String> peers = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String peer = entry.get("peer").asText();
            peers.add(peer);
            final List<Integer> connections = new ArrayList<>();
            for (final JsonNode point : entry.get("points"))
            {
                connections.add(point.get("connections").asInt());
                assertThat(point.get("requests").asLong()).as(peer).isPositive();
                assertThat(point.get("errors").asLong()).as(peer).isZero();
                assertThat(point.get("requests_per_s").asDouble()).as(peer).isPositive();
                assertThat(point.get("percentiles")).as(peer).hasSize(6);
                assertThat(point.get("percentiles").get(0).get("us").asDouble()).as(peer).isPositive();
                // The server answered at least what the client counted while both measured, give or take the
                // requests in flight at either end of the window.
                assertThat(point.get("server_requests").asLong()).as(peer)
                    .isGreaterThan(point.get("requests").asLong() / 2);
                assertThat(point.get("client_allocated_bytes_per_request").asDouble()).as(peer).isNotNegative();
                assertThat(point.get("server_allocated_bytes_per_request").asDouble()).as(peer).isNotNegative();
                assertThat(point.get("client_cpu_percent").asDouble()).as(peer).isPositive();
                assertThat(point.get("server_cpu_percent").isNumber()).as(peer).isTrue();
                // Each side's CPU time over its measure per request: more than one 10 ms tick for thousands of
                // requests, and at most the whole second of its CPU.
                assertThat(point.get("client_cpu_us_per_request").asDouble()).as(peer).isPositive()
                    .isLessThan(1e6 / point.get("requests").asLong() * 1.5);
                assertThat(point.get("server_cpu_us_per_request").asDouble()).as(peer).isPositive();
                // Its user-space part, counted in 10 ms ticks as the whole is: at most the whole.
                assertThat(point.get("server_user_cpu_us_per_request").asDouble()).as(peer).isNotNegative()
                    .isLessThanOrEqualTo(point.get("server_cpu_us_per_request").asDouble());
            }
            assertThat(connections).as(peer).containsExactly(1, 10);
        }
        assertThat(peers).containsExactly("celer", "celer-spin", "netty");
        assertThat(Files.size(out.resolve("latest-http.png"))).isGreaterThan(5_000);
        // The rates, and below them the servers' CPU per request: two panels of a chart's height each.
        assertThat(ImageIO.read(out.resolve("latest-http.png").toFile()).getHeight()).isGreaterThanOrEqualTo(1_300);
        assertThat(Files.readString(out.resolve("latest-http.md")))
            .contains("| connections ", "latest-http.png", "CPU us/req c / s",
                "### Server CPU time per request, microseconds");
    }

    @Test
    void theServersOnTheNativeTransportsAreMeasuredBesideTheOthers() throws IOException
    {
        Assumptions.assumeTrue(NativeTransport.unavailable(HttpPeer.CELER_URING) == null, () -> "no native peer " +
            "here: " + NativeTransport.unavailable(HttpPeer.CELER_URING));
        final JsonNode report = ResultFields.run(out, "latest-http.json", "http",
            "http", "--peers", "celer-epoll,celer-uring,celer", "--connections", "10", "--warmup-seconds", "1",
            "--seconds", "1");
        assertThat(report.get("failures")).isEmpty();
        assertThat(ResultFields.eachResult(report, (peer, entry) ->
        {
            final JsonNode point = entry.get("points").get(0);
            assertThat(point.get("requests").asLong()).as(peer).isPositive();
            assertThat(point.get("errors").asLong()).as(peer).isZero();
            assertThat(point.get("server_cpu_us_per_request").asDouble()).as(peer).isPositive();
        })).containsExactly("celer-epoll", "celer-uring", "celer");
    }

    @Test
    void nettysServerOnNetty42IsMeasuredBesideItselfOnNetty41() throws IOException
    {
        Assumptions.assumeTrue(Netty42.unavailable(HttpPeer.NETTY42_URING) == null, () -> "no io_uring for Netty "
            + "here: " + Netty42.unavailable(HttpPeer.NETTY42_URING));
        final JsonNode report = ResultFields.run(out, "latest-http.json", "http",
            "http", "--peers", "netty42-uring,netty,netty42-epoll", "--connections", "10", "--warmup-seconds", "1",
            "--seconds", "1");
        assertThat(report.get("failures")).isEmpty();
        assertThat(ResultFields.eachResult(report, (peer, entry) ->
        {
            assertThat(entry.get("description").asText()).as(peer)
                .startsWith(peer.equals("netty") ? "Netty 4.1 " : "Netty 4.2 ");
            final JsonNode point = entry.get("points").get(0);
            assertThat(point.get("requests").asLong()).as(peer).isPositive();
            assertThat(point.get("errors").asLong()).as(peer).isZero();
            assertThat(point.get("server_requests").asLong()).as(peer)
                .isGreaterThan(point.get("requests").asLong() / 2);
            assertThat(point.get("server_cpu_us_per_request").asDouble()).as(peer).isPositive();
        })).containsExactly("netty42-uring", "netty", "netty42-epoll");
    }

    @Test
    void aServerThatCannotRunHereIsDroppedWithItsReasonAndTheOthersRun() throws IOException
    {
        final String before = System.getProperty("celer.bench.netty42");
        System.setProperty("celer.bench.netty42", out.resolve("no-such-build").toString());
        try
        {
            final JsonNode report = ResultFields.run(out, "latest-http.json", "http",
                "http", "--peers", "netty42-epoll,celer", "--connections", "1", "--warmup-seconds", "1", "--seconds",
                "1");
            assertThat(report.get("failures")).isEmpty();
            assertThat(report.get("skipped")).singleElement().extracting(JsonNode::asText)
                .asString().startsWith("netty42-epoll skipped: ");
            assertThat(report.get("results")).singleElement().extracting(entry -> entry.get("peer").asText())
                .isEqualTo("celer");
        }
        finally
        {
            if (before == null)
            {
                System.clearProperty("celer.bench.netty42");
            }
            else
            {
                System.setProperty("celer.bench.netty42", before);
            }
        }
    }

    @Test
    void twoServerReactorsEachServeConnections() throws IOException
    {
        Assumptions.assumeTrue(CpuPlan.available() >= 2, "needs 2 CPUs");
        final JsonNode report = ResultFields.run(out, "latest-http.json", "http",
            "http", "--peers", "celer,celer-spin,netty,vertx", "--connections", "20", "--warmup-seconds", "1",
            "--seconds", "1", "--server-reactors", "2");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("server_reactors").asInt()).isEqualTo(2);
        assertThat(ResultFields.eachResult(report, (peer, entry) ->
        {
            final JsonNode point = entry.get("points").get(0);
            assertThat(point.get("errors").asLong()).as(peer).isZero();
            assertThat(point.get("server_loops").asInt()).as(peer).isEqualTo(2);
            // Each loop served some of the requests: the server did serve from two.
            ResultFields.assertEveryLoopTookAShare(point.get("server_loop_requests_percent"), 2, peer + " requests");
            assertThat(point.get("server_cpu_us_per_request").asDouble()).as(peer).isPositive();
        })).containsExactly("celer", "celer-spin", "netty", "vertx");
        // The kernel spreads Celer's connections over its two listeners by their addresses: 20 all on one reactor
        // is 1 in half a million.
        ResultFields.assertEveryLoopTookAShare(report.get("results").get(0).get("points").get(0)
            .get("server_loop_connections_percent"), 2, "celer connections");
        assertThat(Files.readString(out.resolve("latest-http.md"))).contains("2 server reactors", "per-loop share %");
    }

    @Test
    void serverReactorsOutOfRangeAreUsageErrors()
    {
        for (final String command : List.of("http", "http-paper", "ws"))
        {
            assertThat(Refusals.exitStatus(out, command, "--server-reactors", "0")).as(command).isEqualTo(2);
            assertThat(Refusals.exitStatus(out, command, "--server-reactors", "-1")).as(command).isEqualTo(2);
            assertThat(Refusals.exitStatus(out, command, "--server-reactors", "" + (CpuPlan.available() + 1)))
                .as(command).isEqualTo(2);
        }
        assertThat(out.resolve("latest-http.json")).doesNotExist();
    }

    @Test
    void wrkOutputIsRead()
    {
        final WrkOutput wrk = WrkOutput.parse(String.join("\n",
            "Running 1s test @ http://127.0.0.1:8080/plaintext",
            "  1 threads and 10 connections",
            "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
            "    Latency   120.50us   30.00us   1.20ms   90.00%",
            "  Latency Distribution",
            "     50%  110.00us",
            "     75%  130.00us",
            "     90%  160.00us",
            "     99%    1.10ms",
            "  81234 requests in 1.00s, 10.00MB read",
            "  Socket errors: connect 0, read 2, write 0, timeout 1",
            "  Non-2xx or 3xx responses: 3",
            "Requests/sec:  81234.00",
            "Transfer/sec:     10.00MB"));
        assertThat(wrk.requests()).isEqualTo(81_234);
        assertThat(wrk.requestsPerSecond()).isEqualTo(81_234.0);
        assertThat(wrk.meanUs()).isEqualTo(120.5);
        assertThat(wrk.errors()).isEqualTo(6);
        assertThat(wrk.percentiles()).extracting(HttpPoint.Percentile::us).containsExactly(110.0, 130.0, 160.0, 1100.0);
    }
}
