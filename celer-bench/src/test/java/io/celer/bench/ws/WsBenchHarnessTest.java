package io.celer.bench.ws;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.celer.bench.Bench;
import io.celer.bench.Refusals;
import io.celer.bench.ResultFields;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.Netty42;

/**
 * Runs {@code bench ws} through the launcher on ten clients for a second, Celer's and Netty's servers in every
 * scenario, each in its own processes, and checks that what it writes is sane and documented. Speed is never
 * asserted: this machine is shared.
 */
@Tag("bench")
class WsBenchHarnessTest
{
    @TempDir
    Path out;

    @Test
    void everyPeerAndScenarioCompletesWithSaneCounts() throws IOException
    {
        // Netty's server on Netty 4.2 too: on its io_uring where the kernel gives it, else on its epoll.
        final String netty42 = Netty42.unavailable(WsPeer.NETTY42_URING) == null ? "netty42-uring" : "netty42-epoll";
        final JsonNode report = ResultFields.run(out, "latest-ws.json", "ws",
            "ws", "--clients", "10", "--seconds", "1", "--warmup-seconds", "1", "--peers", "celer,netty," + netty42,
            "--rounds", "1");
        assertThat(report.get("benchmark").asText()).isEqualTo("ws-feed");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("clients").asInt()).isEqualTo(10);
        final List<String> runs = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String scenario = entry.get("scenario").asText();
            final String run = entry.get("peer").asText() + " " + scenario;
            runs.add(run);
            final boolean slow = !scenario.equals("no-slow");
            assertThat(entry.get("slow_clients").asInt()).as(run).isEqualTo(slow ? 1 : 0);
            assertThat(entry.get("fast_clients").asInt()).as(run).isEqualTo(slow ? 9 : 10);
            assertThat(entry.get("fast_received").asLong()).as(run + " fast messages").isPositive();
            assertThat(entry.get("latency_us").get("count").asLong()).as(run + " latencies recorded, one a message")
                .isEqualTo(entry.get("fast_received").asLong());
            assertThat(entry.get("latency_us").get("p99").asDouble()).as(run)
                .isGreaterThanOrEqualTo(entry.get("latency_us").get("p50").asDouble()).isPositive();
            // Measured from the due stamp, a message waited at least as long as from its send stamp.
            assertThat(entry.get("since_due_us").get("count").asLong()).as(run + " due latencies, one a message")
                .isEqualTo(entry.get("fast_received").asLong());
            assertThat(entry.get("since_due_us").get("p50").asDouble()).as(run)
                .isGreaterThanOrEqualTo(entry.get("latency_us").get("p50").asDouble());
            assertThat(entry.get("since_due_us").get("max").asDouble()).as(run)
                .isGreaterThanOrEqualTo(entry.get("latency_us").get("max").asDouble());
            assertThat(entry.get("out_of_order").asLong()).as(run + " sequence numbers going back").isZero();
            // Both processes worked while measuring: more than a tick of 10 ms each over the run's second.
            assertThat(entry.get("cpu").get("server_core_percent").asDouble()).as(run + " server CPU").isPositive();
            assertThat(entry.get("cpu").get("client_core_percent").asDouble()).as(run + " client CPU").isPositive();
            // Per message, a few 10 ms ticks of CPU over tens of thousands of messages: written rounded, it may read 0.
            assertThat(entry.get("cpu").get("server_us_per_message").isNumber()).as(run + " server CPU/msg").isTrue();
            assertThat(entry.get("cpu").get("server_us_per_message").asDouble()).as(run + " server CPU/msg")
                .isNotNegative();
            assertThat(entry.get("cpu").get("client_us_per_message").asDouble()).as(run + " client CPU/msg")
                .isPositive();
            assertThat(entry.get("cpu").get("client_kernel_percent").asDouble()).as(run + " client kernel share")
                .isBetween(0.0, 100.0);
            assertThat(entry.get("slow_received").asLong() > 0).as(run + " slow messages").isEqualTo(slow);
            assertThat(entry.get("server").get("rss_max_mb").asDouble()).as(run + " server RSS").isPositive();
            assertThat(entry.get("server_samples")).as(run + " server samples").isNotEmpty();
            // Each second's CPU time, for the plot's CPU-per-message panel.
            assertThat(entry.get("server_samples").get(0).get("cpu_ms").asLong()).as(run + " server CPU ms")
                .isPositive();
            assertThat(entry.get("client_samples")).as(run + " client samples").isNotEmpty();
            for (final String side : List.of("client", "server"))
            {
                // Only that the figure is there and sane: a measure of a second or two falls while the JIT still
                // compiles the server's path, more of it the more the machine is loaded (4 bytes a message seen).
                // That the feed server with bounded outboxes allocates nothing per message is proven where the JIT
                // is waited out: WsFeedZeroGarbageTest in celer-examples, on the WsFeedServer this peer runs.
                final JsonNode allocated = entry.get("facts").get("allocated_bytes_per_msg").get(side);
                assertThat(allocated.isNumber()).as(run + " " + side + " bytes allocated per message, measured")
                    .isTrue();
                assertThat(allocated.asDouble()).as(run + " " + side + " bytes allocated per message")
                    .isNotNegative();
            }
        }
        assertThat(runs).containsExactly("celer bp-on", "celer bp-off", "celer no-slow", "netty bp-on", "netty bp-off",
            "netty no-slow", netty42 + " bp-on", netty42 + " bp-off", netty42 + " no-slow");
        assertThat(report.get("p99_slow_over_no_slow")).hasSize(3);
        assertThat(out.resolve("latest-ws.png")).exists();
        assertThat(Files.readString(out.resolve("latest-ws.md")))
            .contains("CPU us/msg s / c")
            .contains("# WebSocket feed with slow clients", "| peer", "due p99 us", "client CPU", "slow lost",
                "latest-ws.png");
    }

    @Test
    void aServerWithoutBackPressureStopsAtItsRssCapAndTheReportSaysSo() throws IOException
    {
        // Half the clients slow, each offered 4 MB a second: the unbounded outboxes pass 200 MiB within seconds.
        assertThat(Bench.commandLine().execute("ws", "--clients", "10", "--rate", "4000", "--size", "1000",
            "--slow-percent", "50", "--seconds", "60", "--warmup-seconds", "1", "--peers", "celer", "--scenarios",
            "bp-off", "--rss-cap-mb", "200", "--rounds", "1", "--out", out.toString())).isZero();
        // Its fields are those of any run (checked above), but for a measure cut short and no ratio to give.
        final JsonNode report = new ObjectMapper().readTree(out.resolve("latest-ws.json").toFile());
        assertThat(report.get("results")).hasSize(1);
        final JsonNode entry = report.get("results").get(0);
        assertThat(entry.get("server").get("capped").asBoolean()).as("capped").isTrue();
        assertThat(entry.get("server").get("capped_after_s").asDouble()).isLessThan(60);
        assertThat(entry.get("measured_s").asDouble()).as("the measure ended with the server").isLessThan(60);
        assertThat(Files.readString(out.resolve("latest-ws.md"))).contains("RSS cap at");
    }

    @Test
    void twoServerReactorsEachFeedClients() throws IOException
    {
        Assumptions.assumeTrue(CpuPlan.available() >= 2, "needs 2 CPUs");
        // One scenario gives no p99 ratio, so the fields are checked by the run above, not here.
        assertThat(Bench.commandLine().execute("ws", "--clients", "20", "--seconds", "1", "--warmup-seconds", "1",
            "--peers", "celer,celer-spin,netty,vertx", "--scenarios", "no-slow", "--rounds", "1", "--server-reactors",
            "2",
            "--out", out.toString())).isZero();
        final JsonNode report = new ObjectMapper().readTree(out.resolve("latest-ws.json").toFile());
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("server_reactors").asInt()).isEqualTo(2);
        assertThat(ResultFields.eachResult(report, (peer, entry) ->
        {
            assertThat(entry.get("fast_received").asLong()).as(peer).isPositive();
            assertThat(entry.get("server_loops").asInt()).as(peer).isEqualTo(2);
            // Both loops fed clients; Celer's 20 all on one reactor would be 1 in half a million.
            ResultFields.assertEveryLoopTookAShare(entry.get("loop_clients_percent"), 2, peer + " clients");
            ResultFields.assertEveryLoopTookAShare(entry.get("loop_messages_percent"), 2, peer + " messages");
        })).containsExactly("celer", "celer-spin", "netty", "vertx");
    }

    @Test
    void unknownScenariosAndPeersAreUsageErrors()
    {
        assertThat(Refusals.exitStatus(out, "ws", "--scenarios", "bp-maybe")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "ws", "--peers", "jetty")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "ws", "--slow-percent", "101")).isEqualTo(2);
        assertThat(out.resolve("latest-ws.json")).doesNotExist();
    }
}
