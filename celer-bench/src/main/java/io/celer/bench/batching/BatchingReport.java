package io.celer.bench.batching;

import static io.celer.bench.harness.Cells.format;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.celer.bench.harness.PairResult;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Result;
import io.celer.bench.harness.SideFacts;
import io.celer.bench.harness.Table;

/**
 * A batching run as written to JSON: its settings and how much faster batching made each library (inline after
 * the environment), then one entry per variant (its median round); and the run's table and report.
 *
 * @param placement  where the server, the I/O thread and the producers ran.
 * @param jvmOptions options added to every child JVM.
 * @param epsilon    whether Celer's JVMs ran under Epsilon.
 * @param producers  application threads publishing.
 * @param warmup     messages not timed, before the measured ones.
 * @param messages   measured messages per run.
 * @param size       message size in bytes.
 * @param frameBytes bytes per message on the wire, its 4-byte length included.
 * @param rounds     runs per variant.
 * @param speedups   per library, batched messages/s over per-message messages/s.
 */
record BatchingReport(
    String placement,
    List<String> jvmOptions,
    boolean epsilon,
    int producers,
    int warmup,
    int messages,
    int size,
    int frameBytes,
    int rounds,
    Map<String, Double> speedups)
{
    /** The goals, reported against the numbers and never enforced. */
    static final double GOAL_SPEEDUP = 10;

    /** The goal for one producer, in messages per second. */
    static final double GOAL_RATE = 5_000_000;

    /**
     * One variant's median round.
     *
     * @param variant              the variant's name.
     * @param description          what it does.
     * @param messages             measured messages the server counted.
     * @param size                 message size in bytes.
     * @param round                which round this is (from 1).
     * @param messagesPerSecond    the rate the server received them, first measured message to last.
     * @param bytesPerSecond       the same in bytes on the wire, lengths included.
     * @param mebibytesPerSecond   the same in MiB/s.
     * @param clientMessagesPerSecond the rate the client handed them to the kernel.
     * @param averageBatch         measured messages per drain of the ring.
     * @param producerWaits        tries that found the ring full, over the whole run.
     * @param pauses               times the I/O thread stopped draining for a lagging connection, whole run.
     * @param published            messages the producers published, warm-up included.
     * @param received             messages the server counted, warm-up included.
     * @param sides                the processes: collections, allocation, CPUs (the client's I/O thread's and
     *                             the server's), the client's JDK and JVM options.
     * @param rounds               every round's rate.
     */
    record Entry(
        String variant,
        String description,
        long messages,
        int size,
        int round,
        @JsonProperty("msgs_per_s") double messagesPerSecond,
        @JsonProperty("bytes_per_s") double bytesPerSecond,
        @JsonProperty("mib_per_s") double mebibytesPerSecond,
        @JsonProperty("client_msgs_per_s") double clientMessagesPerSecond,
        @JsonProperty("avg_batch") double averageBatch,
        long producerWaits,
        long pauses,
        Long published,
        Long received,
        @JsonUnwrapped SideFacts sides,
        List<PairResult.Rate> rounds)
    {
    }

    /**
     * Batched over per-message rate for each library both of whose variants ran.
     *
     * @param entries the variants' results.
     * @return library name to speed-up, such as {@code celer -> 12.3}.
     */
    static Map<String, Double> speedups(final List<Entry> entries)
    {
        final Map<String, Double> speedups = new LinkedHashMap<>();
        for (final Entry batched : entries)
        {
            final BatchingVariant variant = BatchingVariant.parse(batched.variant()).get(0);
            if (!variant.batched())
            {
                continue;
            }
            for (final Entry each : entries)
            {
                if (each.variant().equals(variant.counterpart().id()))
                {
                    speedups.put(variant.isCeler() ? "celer" : "netty",
                        batched.messagesPerSecond() / Math.max(1e-9, each.messagesPerSecond()));
                }
            }
        }
        return speedups;
    }

    /**
     * The report of a run.
     *
     * @param settings what ran.
     * @param launcher what started the children.
     * @param result   what it measured.
     * @return the report.
     */
    @SuppressWarnings("unchecked")
    static Report report(final BatchingReport settings, final PeerLauncher launcher, final Result result)
    {
        final List<Entry> entries = (List<Entry>)result.results();
        final Table table = Table.of(List.of("variant", "msgs/s", "MB/s", "msgs/s (client)", "avg batch", "pauses",
            "producer waits", "GC c/s", "alloc B/msg c/s"), entries, e -> List.of(e.variant(),
                format("%,.0f", e.messagesPerSecond()), format("%,.1f", e.bytesPerSecond() / 1e6),
                format("%,.0f", e.clientMessagesPerSecond()), format("%,.0f", e.averageBatch()),
                format("%,d", e.pauses()), format("%,d", e.producerWaits()), e.sides().gcCell(),
                e.sides().allocCell()));
        return Report.of("batching", result, table)
            .title("TCP batching")
            .intro(format("%d producer thread(s) publish %,d messages of %d bytes (%d on the wire with the length) "
                + "after %,d not timed, into one connection; %d round(s) per variant (median round shown).",
                settings.producers(), settings.messages(), settings.size(), settings.frameBytes(), settings.warmup(),
                settings.rounds()))
            .placement("Placement", settings.placement(), launcher)
            .legend("msgs/s and MB/s: the server's rate, first measured message to last (MB/s counts the 4-byte "
                + "lengths). Client: its rate handing them to the kernel. Avg batch: messages per drain of the ring. "
                + "Pauses: drains stopped because the connection lagged. Producer waits: tries that found the ring "
                + "full.")
            .notes(summary(settings, entries));
    }

    /**
     * The speed-ups and the goals, as sentences.
     *
     * @param settings what ran, with the speed-ups.
     * @param entries  the variants' results.
     * @return lines of text.
     */
    static String summary(final BatchingReport settings, final List<Entry> entries)
    {
        final StringBuilder out = new StringBuilder();
        settings.speedups().forEach((library, speedup) -> out.append(format(
            "%s: batched is %.1fx flushing each message (goal: at least %.0fx)%n", library, speedup, GOAL_SPEEDUP)));
        for (final Entry e : entries)
        {
            if (e.variant().equals(BatchingVariant.CELER_BATCHED.id()) && settings.producers() == 1)
            {
                out.append(format("celer-batched with one producer: %,.0f msgs/s (goal: over %,.0f)%n",
                    e.messagesPerSecond(), GOAL_RATE));
            }
        }
        return out.toString();
    }
}
