package io.celer.bench;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One throughput run, as written to JSON: the settings, then one entry per peer (its median round).
 *
 * @param benchmark       always {@code tcp-throughput}.
 * @param started         when the run started, ISO-8601.
 * @param durationSeconds how long the whole run took.
 * @param jdk             the harness's JDK, which the Java peers share.
 * @param os              the kernel.
 * @param cpus            CPUs this process may use.
 * @param pinning         how the two sides were placed.
 * @param jvmOptions      options added to every child JVM.
 * @param epsilon         whether Celer's JVMs ran under Epsilon.
 * @param messages        messages per run.
 * @param size            message size in bytes.
 * @param rounds          runs per peer.
 * @param results         one entry per peer that completed.
 * @param failures        what went wrong with the others.
 */
public record ThroughputReport(
    @JsonProperty("benchmark") String benchmark,
    @JsonProperty("started") String started,
    @JsonProperty("duration_s") double durationSeconds,
    @JsonProperty("jdk") String jdk,
    @JsonProperty("os") String os,
    @JsonProperty("cpus") int cpus,
    @JsonProperty("pinning") String pinning,
    @JsonProperty("jvm_options") List<String> jvmOptions,
    @JsonProperty("epsilon") boolean epsilon,
    @JsonProperty("messages") int messages,
    @JsonProperty("size") int size,
    @JsonProperty("rounds") int rounds,
    @JsonProperty("results") List<Entry> results,
    @JsonProperty("failures") List<String> failures)
{
    /**
     * One peer's median round.
     *
     * @param peer                 the peer's name.
     * @param description          what it is.
     * @param messages             messages sent and received.
     * @param size                 message size in bytes.
     * @param round                which round this is (from 1).
     * @param messagesPerSecond    the rate the server received them, first to last message.
     * @param mebibytesPerSecond   the same in MiB/s.
     * @param clientMessagesPerSecond the rate the client handed them to the kernel.
     * @param gcCount              collections during the run, per side.
     * @param allocatedBytesPerMsg bytes allocated per message on each side's I/O thread.
     * @param pinnedCpus           each side's CPU, null when not pinned.
     * @param jdk                  the peer's JDK.
     * @param jvmOptions           the peer's JVM options.
     * @param rounds               every round's rate.
     */
    public record Entry(
        @JsonProperty("peer") String peer,
        @JsonProperty("description") String description,
        @JsonProperty("messages") long messages,
        @JsonProperty("size") int size,
        @JsonProperty("round") int round,
        @JsonProperty("msgs_per_s") double messagesPerSecond,
        @JsonProperty("mib_per_s") double mebibytesPerSecond,
        @JsonProperty("client_msgs_per_s") double clientMessagesPerSecond,
        @JsonProperty("gc_count") Sides<Long> gcCount,
        @JsonProperty("allocated_bytes_per_msg") Sides<Double> allocatedBytesPerMsg,
        @JsonProperty("pinned_cpus") Sides<Integer> pinnedCpus,
        @JsonProperty("jdk") String jdk,
        @JsonProperty("jvm_options") List<String> jvmOptions,
        @JsonProperty("rounds") List<Round> rounds)
    {
    }

    /**
     * One round's rate.
     *
     * @param round             which round, from 1.
     * @param messagesPerSecond the server's receive rate.
     */
    public record Round(
        @JsonProperty("round") int round,
        @JsonProperty("msgs_per_s") double messagesPerSecond)
    {
    }

    /**
     * All peers side by side.
     *
     * @param entries  one per peer.
     * @param markdown a Markdown table rather than aligned text.
     * @return the table.
     */
    static String table(final List<Entry> entries, final boolean markdown)
    {
        final String[] header = {"peer", "msgs/s (received)", "MiB/s", "msgs/s (sent)", "GC c/s",
            "alloc B/msg c/s"};
        final String[][] rows = new String[entries.size()][];
        for (int i = 0; i < rows.length; i++)
        {
            final Entry e = entries.get(i);
            rows[i] = new String[] {e.peer(), format("%,.0f", e.messagesPerSecond()),
                format("%,.1f", e.mebibytesPerSecond()), format("%,.0f", e.clientMessagesPerSecond()),
                e.gcCount().client() + "/" + e.gcCount().server(),
                format("%.2f", e.allocatedBytesPerMsg().client()) + "/" +
                    format("%.2f", e.allocatedBytesPerMsg().server())};
        }
        return Tables.render(header, rows, markdown);
    }

    /**
     * The Markdown file of a run.
     *
     * @param report the run.
     * @return the document.
     */
    static String markdown(final ThroughputReport report)
    {
        final StringBuilder out = new StringBuilder("# TCP throughput\n\n");
        out.append(format("%,d messages of %d bytes pushed as fast as the write buffer allows, %d round(s) per "
            + "peer (median round shown). Started %s, took %.0f s.%n%n", report.messages(), report.size(),
            report.rounds(), report.started(), report.durationSeconds()));
        out.append("- JDK: ").append(report.jdk()).append('\n');
        out.append("- OS: ").append(report.os()).append(", ").append(report.cpus()).append(" CPUs\n");
        out.append("- Pinning: ").append(report.pinning()).append('\n');
        out.append("- Extra JVM options: ")
            .append(report.jvmOptions().isEmpty() ? "none" : String.join(" ", report.jvmOptions()))
            .append(report.epsilon() ? "; Celer under Epsilon GC" : "").append("\n\n");
        out.append("Received: the server's rate from its first message to its last. Sent: the client's rate ")
            .append("handing them to the kernel.\n\n");
        out.append(table(report.results(), true));
        if (!report.failures().isEmpty())
        {
            out.append("\n## Failures\n\n");
            for (final String failure : report.failures())
            {
                out.append("- ").append(failure.lines().findFirst().orElse(failure)).append('\n');
            }
        }
        return out.toString();
    }

    private static String format(final String format, final Object... args)
    {
        return String.format(Locale.ROOT, format, args);
    }
}
