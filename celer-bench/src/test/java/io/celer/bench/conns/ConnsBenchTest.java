package io.celer.bench.conns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.celer.bench.Refusals;
import io.celer.bench.ResultFields;

/**
 * Runs {@code bench conns} through the launcher on 200 connections per server, every server in both scenarios,
 * from two client processes and four source addresses, and checks that every connection was opened, answered and
 * still open when measured, and that the figures are there and sane. Sizes and speeds are never compared: this
 * machine is shared, and 200 connections move a resident set by little more than its noise. Each server also lists
 * the classes its connections grew the most.
 */
@Tag("bench")
class ConnsBenchTest
{
    private static final int CONNECTIONS = 200;
    private static final int ROUND_TRIPS = 200;

    @TempDir
    Path out;

    @Test
    void everyServerHoldsEveryConnectionAndTheFiguresAreSane() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-conns.json", "conns",
            "conns", "--connections", "" + CONNECTIONS, "--connections-per-client", "120",
            "--connections-per-address", "50", "--round-trips", "" + ROUND_TRIPS, "--warmup-round-trips", "500",
            "--rounds", "1", "--heap-classes", "40");
        assertThat(report.get("benchmark").asText()).isEqualTo("conns");
        assertThat(report.get("heap_classes").asInt()).isEqualTo(40);
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("client_processes").asInt()).isEqualTo(2);
        assertThat(report.get("source_addresses").asInt()).isEqualTo(4);
        final List<String> runs = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String run = entry.get("peer").asText() + " " + entry.get("scenario").asText();
            runs.add(run);
            for (final String count : List.of("connections", "opened", "answered", "still_open"))
            {
                assertThat(entry.get(count).asInt()).as(run + " " + count).isEqualTo(CONNECTIONS);
            }
            assertThat(entry.get("open_s").asDouble()).as(run + " open time").isPositive();
            assertThat(entry.get("held_s").asDouble()).as(run + " held").isGreaterThan(entry.get("open_s").asDouble());
            final JsonNode per = entry.get("per_connection");
            // At 200 connections the RSS and heap growth are within what the JVM commits, gives back and loads on
            // its own (either can come out below zero on a loaded machine); they are figures of the big runs.
            // Here: numbers, and the memory read after the connections is there.
            assertThat(per.get("rss_bytes").isNumber()).as(run + " RSS per connection").isTrue();
            assertThat(per.get("heap_bytes").isNumber()).as(run + " heap per connection").isTrue();
            assertThat(entry.get("server").get("after").get("heap_bytes").asLong()).as(run + " heap")
                .isPositive();
            assertThat(entry.get("server").get("after").get("rss_bytes").asLong()).as(run + " RSS")
                .isGreaterThan(entry.get("server").get("after").get("heap_bytes").asLong());
            assertThat(entry.get("kernel").get("after").get("tcp_sockets").asLong()).as(run + " TCP sockets")
                .isGreaterThanOrEqualTo(2 * CONNECTIONS);
            assertThat(entry.get("kernel").get("after").get("page_size").asLong()).as(run).isPositive();
            for (final String phase : List.of("idle", "loaded"))
            {
                final JsonNode trips = entry.get("fresh_client").get(phase);
                assertThat(trips.get("count").asInt()).as(run + " " + phase).isEqualTo(ROUND_TRIPS);
                assertThat(trips.get("p50_us").asDouble()).as(run + " " + phase + " p50").isPositive();
                assertThat(trips.get("p99_us").asDouble()).as(run + " " + phase + " p99")
                    .isGreaterThanOrEqualTo(trips.get("p50_us").asDouble());
            }
            final JsonNode classes = entry.get("heap_classes");
            assertThat(classes.size()).as(run + " classes listed").isBetween(1, 40);
            for (int i = 1; i < classes.size(); i++)
            {
                assertThat(classes.get(i).get("bytes").asDouble()).as(run + " classes, largest first")
                    .isLessThanOrEqualTo(classes.get(i - 1).get("bytes").asDouble()).isGreaterThanOrEqualTo(1);
            }
            if (run.startsWith("celer "))
            {
                // Its connection object, about 100 bytes each, is among what grew the most, beside what loading
                // and compiling left, which 200 connections do not dwarf.
                assertThat(classes.findValuesAsText("name")).as(run + " classes")
                    .contains("io.celer.tcp.TcpConnection");
            }
            final JsonNode million = entry.get("extrapolated").get(1);
            assertThat(million.get("connections").asInt()).isEqualTo(1_000_000);
            assertThat(million.get("rss_bytes").asDouble()).as(run + " at a million")
                .isCloseTo(1_000_000 * per.get("rss_bytes").asDouble(), within(1.0));
        }
        assertThat(runs).containsExactly("celer http", "netty http", "vertx http", "celer ws", "netty ws", "vertx ws");
        // Celer's server connections borrow their direct read and write buffers only while they use them: idle,
        // they hold none, and the pools keep what was busy at once: less than its 8 KiB read buffer a connection.
        assertThat(report.get("results").get(0).get("per_connection").get("direct_bytes").asDouble())
            .as("celer's direct buffers per idle connection").isBetween(0.0, 8 * 1024.0);
        assertThat(Files.size(out.resolve("latest-conns.png"))).isGreaterThan(5_000);
        assertThat(Files.readString(out.resolve("latest-conns.md"))).contains("# Idle connections",
            "| server | scenario | RSS KiB/conn", "### HTTP keep-alive", "### WebSocket /echo", "latest-conns.png",
            "### celer ws: the classes that grew the most, per connection", "| class ", " bytes/conn | objects/conn |");
        ResultFields.assertDatedFiles(out, "conns", "json", "md", "png");
    }

    @Test
    void badOptionsAreUsageErrors()
    {
        assertThat(Refusals.exitStatus(out, "conns", "--scenarios", "ftp")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "conns", "--peers", "jetty")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "conns", "--connections", "0")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "conns", "--size", "126")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "conns", "--heap-classes", "-1")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "conns", "--connections", "300", "--connections-per-address", "1"))
            .as("more source addresses than 127.0.0.2 to 127.0.0.254").isEqualTo(2);
        assertThat(out.resolve("latest-conns.json")).doesNotExist();
    }
}
