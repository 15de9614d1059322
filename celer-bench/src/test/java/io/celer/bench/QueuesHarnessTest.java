package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Runs {@code bench queues} under JMH with iterations of a tenth of a second and checks that every kind and
 * implementation produced a sane result and the files. Speed is never asserted: this machine is shared.
 */
@Tag("bench")
class QueuesHarnessTest
{
    private static final List<String> IMPLEMENTATIONS = List.of("celer", "agrona", "jctools", "disruptor");

    @TempDir
    Path out;

    @Test
    void everyKindAndImplementationReportsAPositiveScore() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-queues.json", "queues",
            "queues", "--forks", "1", "--warmup-iterations", "1", "--iterations", "2", "--iteration-ms", "100",
            "--warmup-ms", "100");
        assertThat(report.get("benchmark").asText()).isEqualTo("queues");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("forks").asInt()).isEqualTo(1);
        assertThat(report.get("warmup_ms").asInt()).isEqualTo(100);
        assertThat(report.get("jdk").asText()).isNotBlank();
        final List<String> seen = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            final String kind = entry.get("kind").asText();
            final String name = kind + " " + entry.get("implementation").asText();
            seen.add(name);
            assertThat(entry.get("unit").asText()).as(name).isEqualTo(kind.endsWith("round-trip") ? "ns" : "msgs/s");
            assertThat(entry.get("score").asDouble()).as(name).isPositive();
            assertThat(entry.get("allocated_bytes_per_msg").asDouble()).as(name).isNotNegative();
            assertThat(entry.get("iteration_scores")).as(name).hasSize(2);
            if (kind.endsWith("round-trip"))
            {
                assertThat(entry.get("messages_per_take").isNull()).as(name).isTrue();
            }
            else
            {
                assertThat(entry.get("messages_per_take").asDouble()).as(name).isGreaterThanOrEqualTo(1.0);
            }
            for (final JsonNode iteration : entry.get("iteration_scores"))
            {
                // A tenth of a second on a loaded machine may see a thread descheduled throughout: the score, the
                // mean, must be positive, a single iteration only not negative.
                assertThat(iteration.asDouble()).as(name + " iteration").isNotNegative();
            }
        }
        final List<String> expected = new ArrayList<>();
        for (final String kind : List.of("one-to-one", "many-to-one", "round-trip"))
        {
            for (final String implementation : IMPLEMENTATIONS)
            {
                expected.add(kind + " " + implementation);
            }
        }
        // The reactor is Celer's alone.
        expected.add("reactor-round-trip celer");
        expected.add("reactor-callback-round-trip celer");
        assertThat(seen).containsExactlyElementsOf(expected);

        ResultFields.assertDatedFiles(out, "queues", "json", "md");
        assertThat(Files.readString(out.resolve("latest-queues.md"))).contains("# Queues", "| kind",
            "| one-to-one", "| many-to-one", "| round-trip", "| reactor-round-trip", "| reactor-callback-round-trip",
            "Reactor.callAsync", "CallbackQueue", "CarrierQueue", "CarrierMux", "SpscArrayQueue", "MpscArrayQueue", "OneToOneConcurrentArrayQueue", "ManyToOneConcurrentArrayQueue", "RingBuffer");
    }

    @Test
    void forksRunInTurnsAndEachCountsInTheMedian() throws IOException
    {
        final JsonNode report = ResultFields.run(out, "latest-queues.json", "queues", "queues", "--kinds",
            "round-trip", "--impls", "celer,agrona", "--forks", "2", "--warmup-iterations", "1", "--iterations", "2",
            "--iteration-ms", "100", "--warmup-ms", "100");
        assertThat(report.get("failures")).isEmpty();
        assertThat(report.get("forks").asInt()).isEqualTo(2);
        assertThat(report.get("results")).hasSize(2);
        int roundsLed = 0;
        for (final JsonNode entry : report.get("results"))
        {
            assertThat(entry.get("iteration_scores")).as(entry.get("implementation").asText()).hasSize(4);
            assertThat(entry.get("fork_scores")).as(entry.get("implementation").asText()).hasSize(2);
            assertThat(entry.get("score").asDouble()).isPositive();
            roundsLed += entry.get("rounds_led").asInt();
        }
        // Two forks, so two rounds, each led by one of the two (the scores are measured doubles: no ties).
        assertThat(roundsLed).isEqualTo(2);
        assertThat(Files.readString(out.resolve("latest-queues.md"))).contains("| led");
    }

    @Test
    void badInputIsAUsageError()
    {
        assertThat(Refusals.exitStatus(out, "queues", "--kinds", "sideways")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "queues", "--impls", "celer,nope")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "queues", "--iterations", "0")).isEqualTo(2);
        assertThat(Refusals.exitStatus(out, "queues", "--warmup-ms", "5")).isEqualTo(2);
        assertThat(out.resolve("latest-queues.json")).doesNotExist();
    }
}
