package io.celer.bench.ticktotrade;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.security.auth.module.UnixSystem;

import io.celer.bench.Bench;
import io.celer.bench.Refusals;
import io.celer.bench.ResultFields;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Runs {@code bench tick-to-trade} on a few hundred quotes, with a tshark capture where it can run (the
 * launcher installs it) and without, and checks that quotes were matched to their orders and the files written.
 * Speed is never asserted: this machine is shared.
 */
@Tag("bench")
class TickToTradeBenchTest
{
    @TempDir
    Path out;

    @Test
    void onTheWireQuotesAreMatchedToTheirOrders() throws IOException
    {
        assumeThat(WireCapture.version()).as("tshark is not installed: ./celer test installs it").isNotNull();
        assumeThat(new UnixSystem().getUid()).as("capturing packets needs root").isZero();

        final JsonNode report = ResultFields.run(out, "latest-tick-to-trade.json", "tick-to-trade-wire",
            "tick-to-trade", "--quotes-warmup", "5000", "--quotes", "300", "--spacing-us", "50");
        assertThat(report.get("benchmark").asText()).isEqualTo("tick-to-trade");
        assertThat(report.get("wire").asText()).isEqualTo("captured");
        assertThat(report.get("quotes").asLong()).isEqualTo(300);
        assertThat(report.get("lost").asLong()).isZero();
        final JsonNode results = report.get("results");
        assertThat(results).hasSize(2);
        assertThat(results.get(0).get("measure").asText()).isEqualTo("in-process");
        assertThat(results.get(0).get("matched").asLong()).isEqualTo(300);
        final JsonNode wire = results.get(1);
        assertThat(wire.get("measure").asText()).isEqualTo("wire-to-wire");
        assertThat(wire.get("matched").asLong()).isPositive().isLessThanOrEqualTo(300);
        assertThat(wire.get("total").asLong()).isEqualTo(300);
        assertThat(wire.get("min_us").asDouble()).isPositive();
        assertThat(wire.get("p50_us").asDouble()).isGreaterThanOrEqualTo(wire.get("min_us").asDouble());
        assertThat(wire.get("max_us").asDouble()).isGreaterThanOrEqualTo(wire.get("p99_9_us").asDouble());
        final JsonNode capture = report.get("capture");
        assertThat(capture.get("quotes_seen").asLong()).isGreaterThanOrEqualTo(wire.get("matched").asLong());
        assertThat(capture.get("frames").asLong()).isGreaterThan(wire.get("matched").asLong() * 2);

        assertFilesWritten();
        assertThat(Files.readString(out.resolve("latest-tick-to-trade.md"))).contains("# Tick-to-trade",
            "| in-process", "| wire-to-wire", "matched/total");
    }

    @Test
    void withoutTheWireOnlyTheInProcessNumbersAreReportedAndTheReportSaysWhy() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-tick-to-trade.json", "tick-to-trade-no-wire",
            "tick-to-trade", "--no-wire", "--quotes-warmup", "2000", "--quotes", "100", "--spacing-us", "20");
        assertThat(report.get("wire").asText()).isEqualTo("not measured: --no-wire");
        assertThat(report.get("capture").isNull()).isTrue();
        assertThat(report.get("results")).hasSize(1);
        assertThat(report.get("results").get(0).get("matched").asLong()).isEqualTo(100);
        assertFilesWritten();
        assertThat(Files.readString(out.resolve("latest-tick-to-trade.md"))).contains("wire: not measured");
    }

    @Test
    void helpListsTheCommandAndBadCountsAreAUsageError()
    {
        final StringWriter help = new StringWriter();
        final picocli.CommandLine bench = Bench.commandLine();
        bench.setOut(new PrintWriter(help));
        assertThat(bench.execute("--help")).isZero();
        assertThat(help.toString()).contains("tick-to-trade");
        assertThat(Refusals.exitStatus(out, "tick-to-trade", "--quotes", "0")).isEqualTo(2);
    }

    private void assertFilesWritten() throws IOException
    {
        ResultFields.assertDatedFiles(out, "tick-to-trade", "json", "md");
        assertThat(out.resolve("latest-tick-to-trade.md")).exists();
    }
}
