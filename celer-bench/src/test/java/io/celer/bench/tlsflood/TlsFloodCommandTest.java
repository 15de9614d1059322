package io.celer.bench.tlsflood;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@code bench tls-flood} run short: the flooding process shakes hands with both TLS servers without a failure,
 * the bounded one makes some wait, and the plain client is measured in every phase. The figures themselves are
 * the benchmark's to report, not this test's to judge.
 */
class TlsFloodCommandTest
{
    @Test
    void aShortFloodRunsEveryPhaseAndPrintsItsTable() throws Exception
    {
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final TlsFloodCommand command = new TlsFloodCommand().out(new PrintStream(printed, true, StandardCharsets.UTF_8));
        command.flooders = 40;
        command.samples = 2_000;
        command.bound = 4;
        command.settleMillis = 500;
        command.warmupSeconds = 2;
        final List<TlsFloodCommand.Phase> phases = command.run();

        assertThat(phases).extracting(TlsFloodCommand.Phase::name)
            .containsExactly("quiet", "flood, bound 4", "flood, no bound", "flood, no bound", "flood, bound 4",
                "quiet again");
        for (final TlsFloodCommand.Phase phase : phases)
        {
            assertThat(phase.sortedNanos()).as(phase.name()).hasSize(2_000);
        }
        assertThat(phases.get(1).handshakes()).as("handshakes with the bound").isPositive();
        assertThat(phases.get(1).failures()).as("failed handshakes with the bound").isZero();
        assertThat(phases.get(1).waited()).as("handshakes that waited for a slot").isPositive();
        assertThat(phases.get(2).handshakes()).as("handshakes without the bound").isPositive();
        assertThat(phases.get(2).failures()).isZero();
        assertThat(phases.get(2).waited()).isZero();
        assertThat(command.table(phases)).contains("| flood, bound 4 |").contains("| quiet again |");
    }
}
