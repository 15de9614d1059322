package io.celer.bench.tlsflood;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@code bench tls-flood --quick}: the flooding process shakes hands with both TLS servers without a failure,
 * the bound makes some wait, and the plain client is measured in every phase. The figures themselves are the
 * benchmark's to report, not this test's to judge.
 */
class TlsFloodCommandTest
{
    @Test
    void aShortFloodRunsEveryPhaseAndPrintsItsTable() throws Exception
    {
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final TlsFloodCommand command = new TlsFloodCommand().out(new PrintStream(printed, true, StandardCharsets.UTF_8));
        command.quick = true;
        command.bound = 4;
        final List<TlsFloodCommand.Phase> phases = command.run();

        assertThat(phases).extracting(TlsFloodCommand.Phase::name)
            .containsExactly("quiet", "flood, defaults", "flood, work on the reactor", "flood, work on the reactor",
                "flood, defaults", "quiet again");
        for (final TlsFloodCommand.Phase phase : phases)
        {
            assertThat(phase.sortedNanos()).as(phase.name()).hasSize(2_000);
        }
        for (final TlsFloodCommand.Phase phase : phases.subList(1, 5))
        {
            assertThat(phase.handshakes()).as(phase.name() + ": handshakes").isPositive();
            assertThat(phase.failures()).as(phase.name() + ": failed handshakes").isZero();
            assertThat(phase.waited()).as(phase.name() + ": handshakes that waited for a slot").isPositive();
            assertThat(phase.reactorCpuNanos()).as(phase.name() + ": the reactor's CPU time").isPositive();
        }
        assertThat(command.table(phases)).contains("| flood, defaults |").contains("| quiet again |");
    }
}
