package io.celer.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/**
 * {@code ./celer soak} for a minute, as the test suite can afford: a thousand churning WebSocket clients and
 * keep-alive HTTP, nothing grown after warm-up and nothing lost. Tagged as a benchmark run: a minute of the
 * whole machine, run once, on one JDK.
 */
@Tag("bench")
class SoakCommandTest
{
    @Test
    void aMinuteOfSoakPassesAndWritesItsReports(@TempDir final Path out) throws Exception
    {
        final int exit = new CommandLine(new SoakCommand()).execute("--duration", "60s", "--out", out.toString());
        final String json = Files.readString(out.resolve("soak.json"), StandardCharsets.UTF_8);
        assertThat(exit).as("exit status; report %s", json).isZero();
        assertThat(json).contains("\"pass\": true").contains("\"lost\": 0").contains("\"httpErrors\": 0");
        assertThat(Files.readString(out.resolve("soak.md"), StandardCharsets.UTF_8))
            .contains("| resident set (MiB) |").contains("Result: pass.");
    }

    @Test
    void durationsReadAsPeopleWriteThem()
    {
        final SoakCommand.DurationConverter converter = new SoakCommand.DurationConverter();
        assertThat(converter.convert("90s").toSeconds()).isEqualTo(90);
        assertThat(converter.convert("30m").toMinutes()).isEqualTo(30);
        assertThat(converter.convert("2h").toHours()).isEqualTo(2);
        assertThat(converter.convert("PT1M").toSeconds()).isEqualTo(60);
    }
}
