package io.celer.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One batching run, as written to JSON: the settings, one entry per variant (its median round), and how much
 * faster batching made each library.
 *
 * @param benchmark       always {@code tcp-batching}.
 * @param started         when the run started, ISO-8601.
 * @param durationSeconds how long the whole run took.
 * @param jdk             the harness's JDK, which the clients share.
 * @param os              the kernel.
 * @param cpus            CPUs this process may use.
 * @param placement       where the server, the I/O thread and the producers ran.
 * @param jvmOptions      options added to every child JVM.
 * @param epsilon         whether Celer's JVMs ran under Epsilon.
 * @param producers       application threads publishing.
 * @param warmup          messages not timed, before the measured ones.
 * @param messages        measured messages per run.
 * @param size            message size in bytes.
 * @param frameBytes      bytes per message on the wire, its 4-byte length included.
 * @param rounds          runs per variant.
 * @param results         one entry per variant that completed.
 * @param speedups        per library, batched messages/s over per-message messages/s.
 * @param failures        what went wrong with the others.
 */
public record BatchingReport(
    @JsonProperty("benchmark") String benchmark,
    @JsonProperty("started") String started,
    @JsonProperty("duration_s") double durationSeconds,
    @JsonProperty("jdk") String jdk,
    @JsonProperty("os") String os,
    @JsonProperty("cpus") int cpus,
    @JsonProperty("placement") String placement,
    @JsonProperty("jvm_options") List<String> jvmOptions,
    @JsonProperty("epsilon") boolean epsilon,
    @JsonProperty("producers") int producers,
    @JsonProperty("warmup") int warmup,
    @JsonProperty("messages") int messages,
    @JsonProperty("size") int size,
    @JsonProperty("frame_bytes") int frameBytes,
    @JsonProperty("rounds") int rounds,
    @JsonProperty("results") List<Entry> results,
    @JsonProperty("speedups") Map<String, Double> speedups,
    @JsonProperty("failures") List<String> failures)
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
     * @param gcCount              collections while measuring, per side.
     * @param allocatedBytesPerMsg bytes allocated per message on each side's I/O thread.
     * @param pinnedCpus           the client's I/O thread's CPU and the server's, null when not pinned.
     * @param jdk                  the client's JDK.
     * @param jvmOptions           the client's JVM options.
     * @param rounds               every round's rate.
     */
    public record Entry(
        @JsonProperty("variant") String variant,
        @JsonProperty("description") String description,
        @JsonProperty("messages") long messages,
        @JsonProperty("size") int size,
        @JsonProperty("round") int round,
        @JsonProperty("msgs_per_s") double messagesPerSecond,
        @JsonProperty("bytes_per_s") double bytesPerSecond,
        @JsonProperty("mib_per_s") double mebibytesPerSecond,
        @JsonProperty("client_msgs_per_s") double clientMessagesPerSecond,
        @JsonProperty("avg_batch") double averageBatch,
        @JsonProperty("producer_waits") long producerWaits,
        @JsonProperty("pauses") long pauses,
        @JsonProperty("published") Long published,
        @JsonProperty("received") Long received,
        @JsonProperty("gc_count") Sides<Long> gcCount,
        @JsonProperty("allocated_bytes_per_msg") Sides<Double> allocatedBytesPerMsg,
        @JsonProperty("pinned_cpus") Sides<Integer> pinnedCpus,
        @JsonProperty("jdk") String jdk,
        @JsonProperty("jvm_options") List<String> jvmOptions,
        @JsonProperty("rounds") List<ThroughputReport.Round> rounds)
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
                    speedups.put(variant.peer() == Peer.CELER ? "celer" : "netty",
                        batched.messagesPerSecond() / Math.max(1e-9, each.messagesPerSecond()));
                }
            }
        }
        return speedups;
    }

    /**
     * All variants side by side.
     *
     * @param entries  one per variant.
     * @param markdown a Markdown table rather than aligned text.
     * @return the table.
     */
    static String table(final List<Entry> entries, final boolean markdown)
    {
        final String[] header = {"variant", "msgs/s", "MB/s", "msgs/s (client)", "avg batch", "pauses",
            "producer waits", "GC c/s", "alloc B/msg c/s"};
        final String[][] rows = new String[entries.size()][];
        for (int i = 0; i < rows.length; i++)
        {
            final Entry e = entries.get(i);
            rows[i] = new String[] {e.variant(), format("%,.0f", e.messagesPerSecond()),
                format("%,.1f", e.bytesPerSecond() / 1e6), format("%,.0f", e.clientMessagesPerSecond()),
                format("%,.0f", e.averageBatch()), format("%,d", e.pauses()), format("%,d", e.producerWaits()),
                e.gcCount().client() + "/" + e.gcCount().server(),
                bytes(e.allocatedBytesPerMsg().client()) + "/" + bytes(e.allocatedBytesPerMsg().server())};
        }
        return Tables.render(header, rows, markdown);
    }

    /**
     * The speed-ups and the goals, as sentences.
     *
     * @param report the run.
     * @return lines of text.
     */
    static String summary(final BatchingReport report)
    {
        final StringBuilder out = new StringBuilder();
        report.speedups().forEach((library, speedup) -> out.append(format(
            "%s: batched is %.1fx flushing each message (goal: at least %.0fx)%n", library, speedup, GOAL_SPEEDUP)));
        for (final Entry e : report.results())
        {
            if (e.variant().equals(BatchingVariant.CELER_BATCHED.id()) && report.producers() == 1)
            {
                out.append(format("celer-batched with one producer: %,.0f msgs/s (goal: over %,.0f)%n",
                    e.messagesPerSecond(), GOAL_RATE));
            }
        }
        return out.toString();
    }

    /**
     * The Markdown file of a run.
     *
     * @param report the run.
     * @return the document.
     */
    static String markdown(final BatchingReport report)
    {
        final StringBuilder out = new StringBuilder("# TCP batching\n\n");
        out.append(format("%d producer thread(s) publish %,d messages of %d bytes (%d on the wire with the length) "
            + "after %,d not timed, into one connection; %d round(s) per variant (median round shown). Started %s, "
            + "took %.0f s.%n%n", report.producers(), report.messages(), report.size(), report.frameBytes(),
            report.warmup(), report.rounds(), report.started(), report.durationSeconds()));
        out.append("- JDK: ").append(report.jdk()).append('\n');
        out.append("- OS: ").append(report.os()).append(", ").append(report.cpus()).append(" CPUs\n");
        out.append("- Placement: ").append(report.placement()).append('\n');
        out.append("- Extra JVM options: ")
            .append(report.jvmOptions().isEmpty() ? "none" : String.join(" ", report.jvmOptions()))
            .append(report.epsilon() ? "; Celer under Epsilon GC" : "").append("\n\n");
        out.append("msgs/s and MB/s: the server's rate, first measured message to last (MB/s counts the 4-byte ")
            .append("lengths). Client: its rate handing them to the kernel. Avg batch: messages per drain of the ")
            .append("ring. Pauses: drains stopped because the connection lagged. Producer waits: tries that found ")
            .append("the ring full.\n\n");
        out.append(table(report.results(), true)).append('\n');
        out.append(summary(report).replace("\n", "\n\n"));
        if (!report.failures().isEmpty())
        {
            out.append("## Failures\n\n");
            for (final String failure : report.failures())
            {
                out.append("- ").append(failure.lines().findFirst().orElse(failure)).append('\n');
            }
        }
        return out.toString();
    }

    private static String bytes(final Double perMessage)
    {
        return perMessage == null ? "n/a" : format(perMessage >= 10 ? "%.0f" : "%.2f", perMessage);
    }

    private static String format(final String format, final Object... args)
    {
        return String.format(Locale.ROOT, format, args);
    }
}
