package io.celer.bench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.celer.bench.ResultFields;
import io.celer.bench.harness.ToolRun;

/**
 * Runs {@code bench http-paper} on a few hundred requests against two servers, each in its own process under ab,
 * and checks what it writes. Speed is never asserted: this machine is shared.
 */
@Tag("bench")
@Timeout(300)
class HttpPaperBenchTest
{
    @TempDir
    Path out;

    @Test
    void paperRunMeasuresEachConcurrencyOfEachServer() throws IOException
    {
        Assumptions.assumeTrue(ToolRun.installed("ab"), "ab (apache2-utils) is not installed");
        final JsonNode report = ResultFields.run(out, "latest-http-paper.json", "http-paper",
            "http-paper", "--peers", "celer,thread-per-connection", "--concurrency", "1,2", "--requests", "200");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("keep_alive").asBoolean()).isFalse();
        final List<String> peers = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String peer = entry.get("peer").asText();
            peers.add(peer);
            final List<Integer> concurrency = new ArrayList<>();
            for (final JsonNode point : entry.get("points"))
            {
                concurrency.add(point.get("concurrency").asInt());
                assertThat(point.get("complete").asLong()).as(peer).isEqualTo(200);
                assertThat(point.get("failed").asLong()).as(peer).isZero();
                assertThat(point.get("non_2xx").asLong()).as(peer).isZero();
                assertThat(point.get("requests_per_s").asDouble()).as(peer).isPositive();
                assertThat(point.get("percentiles")).as(peer).hasSize(9);
                // The server counted the same requests as ab, between begin and stats.
                assertThat(point.get("server_requests").asLong()).as(peer).isEqualTo(200);
                assertThat(point.get("server_allocated_bytes_per_request").asDouble()).as(peer).isNotNegative();
                assertThat(point.get("ab_cpu_percent").asDouble()).as(peer).isPositive();
                assertThat(point.get("ab_cpu_us_per_request").asDouble()).as(peer).isPositive();
                // 200 requests may cost a server less than one 10 ms tick of CPU.
                assertThat(point.get("server_cpu_us_per_request").asDouble()).as(peer).isNotNegative();
                assertThat(point.get("server_cpu_percent").isNumber()).as(peer).isTrue();
            }
            assertThat(concurrency).as(peer).containsExactly(1, 2);
        }
        assertThat(peers).containsExactly("celer", "thread-per-connection");
        assertThat(Files.size(out.resolve("latest-http-paper.png"))).isGreaterThan(5_000);
        assertThat(Files.readString(out.resolve("latest-http-paper.md")))
            .contains("| N ", "thread-per-connection", "latest-http-paper.png", "## Per server", "CPU % ab / s",
                "CPU us/req ab / s", "### Server CPU time per request, microseconds");
    }

    @Test
    void abOutputIsRead()
    {
        final AbOutput ab = AbOutput.parse(String.join("\n",
            "Concurrency Level:      4",
            "Complete requests:      3000",
            "Failed requests:        2",
            "Non-2xx responses:      1",
            "Requests per second:    1234.56 [#/sec] (mean)",
            "Time per request:       3.240 [ms] (mean)",
            "Percentage of the requests served within a certain time (ms)",
            "  50%      1",
            "  99%      7",
            " 100%     12 (longest request)"));
        assertThat(ab.complete()).isEqualTo(3000);
        assertThat(ab.failed()).isEqualTo(2);
        assertThat(ab.non2xx()).isEqualTo(1);
        assertThat(ab.requestsPerSecond()).isEqualTo(1234.56);
        assertThat(ab.at(99)).isEqualTo(7);
        assertThat(ab.at(100)).isEqualTo(12);
        assertThat(ab.at(90)).isNull();
    }
}
