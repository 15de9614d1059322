package io.celer.bench.queues;

import static io.celer.bench.harness.Cells.format;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.celer.bench.harness.Cells;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Result;
import io.celer.bench.harness.Table;

/**
 * A run of {@code bench queues} as written to JSON: its settings (inline after the environment), then one entry
 * per benchmark; and the run's table and report.
 *
 * @param jvmOptions       options of every forked JVM.
 * @param warmupIterations JMH warm-up iterations per benchmark.
 * @param warmupMillis     length of each warm-up iteration.
 * @param iterations       JMH measured iterations per benchmark.
 * @param iterationMillis  length of each measured iteration.
 * @param forks            JVMs per benchmark.
 */
record QueuesReport(
    List<String> jvmOptions,
    int warmupIterations,
    @JsonProperty("warmup_ms") int warmupMillis,
    int iterations,
    @JsonProperty("iteration_ms") int iterationMillis,
    int forks)
{
    /**
     * One benchmark's result.
     *
     * @param kind            {@code one-to-one}, {@code many-to-one}, {@code round-trip},
     *                        {@code reactor-round-trip} or {@code reactor-callback-round-trip}.
     * @param implementation  {@code celer}, {@code agrona}, {@code jctools} or {@code disruptor}.
     * @param queue           the classes it ran.
     * @param unit            {@code msgs/s} or {@code ns} (per round trip).
     * @param score           the median over the forks of each fork's mean over its measured iterations.
     * @param error           JMH's 99.9% confidence half-width, null when too few iterations.
     * @param bytesPerMessage bytes the benchmark's threads allocated per message.
     * @param messagesPerTake messages per consumer call that took any, null for round trips.
     * @param iterationScores each measured iteration's score.
     * @param forkScores      each fork's mean, in the order of the rounds.
     * @param roundsLed       in how many rounds this fork was the best of its kind; null where the run has no other
     *                        implementation of the kind to compare with.
     */
    record Entry(
        String kind,
        String implementation,
        String queue,
        String unit,
        double score,
        Double error,
        @JsonProperty("allocated_bytes_per_msg") double bytesPerMessage,
        @JsonProperty("messages_per_take") Double messagesPerTake,
        List<Double> iterationScores,
        List<Double> forkScores,
        Integer roundsLed)
    {
        Entry withRoundsLed(final Integer rounds)
        {
            return new Entry(kind, implementation, queue, unit, score, error, bytesPerMessage, messagesPerTake,
                iterationScores, forkScores, rounds);
        }

        boolean higherIsBetter()
        {
            return unit.equals("msgs/s");
        }
    }

    /**
     * Counts, for each entry, the rounds in which its fork was the best of its kind: a round runs one fork of every
     * benchmark in turn, so the forks of a round met the same placement of the machine's cores, which the medians
     * of forks taken at different times do not show.
     *
     * @param entries the run's entries.
     * @return the same entries with {@code roundsLed} set where another implementation of the kind ran as many forks.
     */
    static List<Entry> withRoundsLed(final List<Entry> entries)
    {
        final List<Entry> counted = new ArrayList<>(entries.size());
        for (final Entry entry : entries)
        {
            int led = 0;
            boolean compared = false;
            for (int round = 0; round < entry.forkScores().size(); round++)
            {
                boolean best = true;
                for (final Entry other : entries)
                {
                    if (other == entry || !other.kind().equals(entry.kind()) ||
                        other.forkScores().size() != entry.forkScores().size())
                    {
                        continue;
                    }
                    compared = true;
                    final double mine = entry.forkScores().get(round);
                    final double theirs = other.forkScores().get(round);
                    best &= entry.higherIsBetter() ? mine > theirs : mine < theirs;
                }
                led += best ? 1 : 0;
            }
            counted.add(entry.withRoundsLed(compared ? led : null));
        }
        return counted;
    }

    /**
     * The report of a run.
     *
     * @param settings what ran.
     * @param result   what it measured.
     * @return the report.
     */
    @SuppressWarnings("unchecked")
    static Report report(final QueuesReport settings, final Result result)
    {
        final Table table = Table.of(List.of("kind", "implementation", "msgs/s", "ns", "±", "best", "B/msg",
            "msgs/take", "led", "queue"), (List<Entry>)result.results(), e ->
        {
            final boolean rate = e.higherIsBetter();
            final String pattern = rate ? "%,.0f" : "%,.1f";
            final String score = format(pattern, e.score());
            final double best = rate
                ? e.iterationScores().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)
                : e.iterationScores().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            return List.of(e.kind(), e.implementation(), rate ? score : "", rate ? "" : score,
                e.error() == null ? Cells.NOT_AVAILABLE
                    : format("%.0f%%", 100 * e.error() / Math.max(1e-9, e.score())),
                format(pattern, best), format("%.2f", e.bytesPerMessage()),
                e.messagesPerTake() == null ? "" : format("%.1f", e.messagesPerTake()),
                e.roundsLed() == null ? "" : e.roundsLed() + "/" + e.forkScores().size(), e.queue());
        });
        return Report.of("queues", result, table)
            .title("Queues")
            .intro(format("Celer's carrier queues against Agrona, JCTools and the Disruptor, under JMH: %d fork(s) per "
                + "benchmark, %d warm-up iteration(s) of %d ms and %d measured of %d ms.", settings.forks(),
                settings.warmupIterations(), settings.warmupMillis(), settings.iterations(),
                settings.iterationMillis()))
            .fact("JVM options", String.join(" ", settings.jvmOptions()))
            .legend("one-to-one: one producer thread, one consumer thread; many-to-one: two producers, one consumer; "
                + "msgs/s is what the consumer took while JMH measured, over the iterations' length. round-trip: "
                + "ping-pong through two one-to-one queues, ns per round trip. reactor-round-trip and "
                + "reactor-callback-round-trip: ping-pong through a started, busy-spinning reactor, handed a "
                + "pre-allocated callback by callAsync or through a CallbackQueue, which answers through a "
                + "CarrierQueue; ns per round trip. Each figure is the median over the forks of each fork's mean "
                + "over its iterations. ±: JMH's 99.9% confidence "
                + "half-width, relative. Best: the best measured iteration. B/msg: bytes all the benchmark's "
                + "threads allocated, per message (a round trip is two). msgs/take: messages per consumer call that took any, "
                + "how far the consumer ran behind its producers (near 1: on their heels, sharing the cache lines "
                + "they are writing). led: in how many rounds this queue's fork was the best of its kind (a round "
                + "runs one fork of every benchmark in turn, so its forks met the same placement of the cores). "
                + "Agrona and JCTools carry references, so "
                + "each message comes from a pre-allocated pool that the receiver gives it back to; Celer's "
                + "carriers and the Disruptor's events stay in their rings.");
    }
}
