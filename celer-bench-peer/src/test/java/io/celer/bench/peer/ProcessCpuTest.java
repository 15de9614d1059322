package io.celer.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The process's user and kernel times, read from {@code /proc/self/stat}.
 */
class ProcessCpuTest
{
    @Test
    void readsUserAndKernelTicksAfterANameWithSpacesAndParentheses()
    {
        final ProcessCpu cpu = ProcessCpu.parse(
            "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 30 0 123 0 0");
        assertThat(cpu.userMillis()).isEqualTo(2500);
        assertThat(cpu.systemMillis()).isEqualTo(750);
    }

    @Test
    void reportsTheTimeSinceAnEarlierReading()
    {
        final ProcessCpu before = ProcessCpu.parse("1 (a) S 1 1 1 0 -1 0 0 0 0 0 10 20 0 0");
        final ProcessCpu after = ProcessCpu.parse("1 (a) S 1 1 1 0 -1 0 0 0 0 0 15 60 0 0");
        assertThat(after.since(before)).isEqualTo(" cpu_user_ms=50 cpu_sys_ms=400");
        assertThat(after.since(null)).isEmpty();
    }

    @Test
    void thisProcessHasUsedSomeCpu()
    {
        final ProcessCpu cpu = ProcessCpu.now();
        if (cpu != null)
        {
            // Loading the JVM and this test alone takes more than a tick of 10 ms.
            assertThat(cpu.userMillis() + cpu.systemMillis()).isPositive();
        }
    }

    @Test
    void aLineWithoutTheNameIsRefused()
    {
        assertThatThrownBy(() -> ProcessCpu.parse("no name here")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessCpu.parse("1 (a) S 1 2")).isInstanceOf(IllegalArgumentException.class);
    }
}
