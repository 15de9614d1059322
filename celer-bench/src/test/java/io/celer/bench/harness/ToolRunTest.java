package io.celer.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool's run: its output, its status and the CPU it used, told by bash once it has exited.
 */
class ToolRunTest
{
    @TempDir
    Path work;

    @Test
    void aToolsCpuTimeIsToldAndItsOutputKeptApart()
    {
        // A busy loop of a fixed count, a few hundred milliseconds of CPU however loaded the machine: bounded by
        // the clock instead, it could run for a moment only (bash's SECONDS counts whole seconds since its start),
        // or be left without a CPU for it.
        final ToolRun run = ToolRun.run("busy", List.of("bash", "-c",
            "echo first; for ((i = 0; i < 300000; i++)); do :; done; echo last; exit 3"),
            work, Duration.ofSeconds(120));
        assertThat(run.exitValue()).isEqualTo(3);
        assertThat(run.output()).isEqualTo("first\nlast\n");
        assertThat(run.cpuSeconds()).isPositive();
        assertThat(run.wallSeconds()).isGreaterThan(0.0);
        assertThat(run.cpuPercent()).isPositive();
    }

    @Test
    void timesAreReadOffTheEndOfTheOutput()
    {
        final ToolRun run = ToolRun.parse(0, "Requests per second: 5.0\n0m0.010s 0m0.002s\n1m2.500s 0m0.500s\n", 126);
        assertThat(run.output()).isEqualTo("Requests per second: 5.0\n");
        assertThat(run.cpuSeconds()).isEqualTo(63.0);
        assertThat(run.cpuPercent()).isEqualTo(50.0);
    }

    @Test
    void outputWithoutTimesHasNoCpu()
    {
        final ToolRun run = ToolRun.parse(1, "killed\n", 2);
        assertThat(run.output()).isEqualTo("killed\n");
        assertThat(run.cpuSeconds()).isNull();
        assertThat(run.cpuPercent()).isNull();
    }
}
