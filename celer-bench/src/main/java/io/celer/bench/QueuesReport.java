package io.celer.bench;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One run of {@code bench queues}, as written to JSON.
 *
 * @param benchmark          always {@code queues}.
 * @param started            when the run started, ISO-8601.
 * @param durationSeconds    how long the whole run took.
 * @param jdk                the JDK, which the forked JVMs share.
 * @param os                 the kernel.
 * @param cpus               CPUs this process may use.
 * @param jvmOptions         options of every forked JVM.
 * @param warmupIterations   JMH warm-up iterations per benchmark.
 * @param iterations         JMH measured iterations per benchmark.
 * @param iterationMillis    length of each iteration.
 * @param forks              JVMs per benchmark.
 * @param results            one entry per benchmark that completed.
 * @param failures           what went wrong with the others.
 */
public record QueuesReport(
    @JsonProperty("benchmark") String benchmark,
    @JsonProperty("started") String started,
    @JsonProperty("duration_s") double durationSeconds,
    @JsonProperty("jdk") String jdk,
    @JsonProperty("os") String os,
    @JsonProperty("cpus") int cpus,
    @JsonProperty("jvm_options") List<String> jvmOptions,
    @JsonProperty("warmup_iterations") int warmupIterations,
    @JsonProperty("warmup_ms") int warmupMillis,
    @JsonProperty("iterations") int iterations,
    @JsonProperty("iteration_ms") int iterationMillis,
    @JsonProperty("forks") int forks,
    @JsonProperty("results") List<Entry> results,
    @JsonProperty("failures") List<String> failures)
{
    /**
     * One benchmark's result.
     *
     * @param kind            {@code one-to-one}, {@code many-to-one} or {@code round-trip}.
     * @param implementation  {@code celer}, {@code agrona}, {@code jctools} or {@code disruptor}.
     * @param queue           the classes it ran.
     * @param unit            {@code msgs/s} or {@code ns} (per round trip).
     * @param score           the mean over the measured iterations.
     * @param error           JMH's 99.9% confidence half-width, null when too few iterations.
     * @param bytesPerMessage bytes the benchmark's threads allocated per message.
     * @param iterationScores each measured iteration's score.
     */
    public record Entry(
        @JsonProperty("kind") String kind,
        @JsonProperty("implementation") String implementation,
        @JsonProperty("queue") String queue,
        @JsonProperty("unit") String unit,
        @JsonProperty("score") double score,
        @JsonProperty("error") Double error,
        @JsonProperty("allocated_bytes_per_msg") double bytesPerMessage,
        @JsonProperty("iteration_scores") List<Double> iterationScores)
    {
    }

    /**
     * All benchmarks side by side.
     *
     * @param entries  the results.
     * @param markdown a Markdown table rather than aligned text.
     * @return the table.
     */
    static String table(final List<Entry> entries, final boolean markdown)
    {
        final String[] header = {"kind", "implementation", "msgs/s", "ns", "±", "best", "B/msg", "queue"};
        final String[][] rows = new String[entries.size()][];
        for (int i = 0; i < rows.length; i++)
        {
            final Entry e = entries.get(i);
            final boolean rate = e.unit().equals("msgs/s");
            final String pattern = rate ? "%,.0f" : "%,.1f";
            final String score = format(pattern, e.score());
            final double best = rate
                ? e.iterationScores().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)
                : e.iterationScores().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            rows[i] = new String[] {e.kind(), e.implementation(), rate ? score : "", rate ? "" : score,
                e.error() == null ? "n/a" : format("%.0f%%", 100 * e.error() / Math.max(1e-9, e.score())),
                format(pattern, best), format("%.2f", e.bytesPerMessage()), e.queue()};
        }
        return Tables.render(header, rows, markdown);
    }

    /**
     * The Markdown file of a run.
     *
     * @param report the run.
     * @return the document.
     */
    static String markdown(final QueuesReport report)
    {
        final StringBuilder out = new StringBuilder("# Queues\n\n");
        out.append(format("Celer's carrier queues against Agrona, JCTools and the Disruptor, under JMH: %d fork(s) per "
            + "benchmark, %d warm-up iteration(s) of %d ms and %d measured of %d ms. Started %s, took %.0f s.%n%n",
            report.forks(), report.warmupIterations(), report.warmupMillis(), report.iterations(),
            report.iterationMillis(), report.started(), report.durationSeconds()));
        out.append("- JDK: ").append(report.jdk()).append('\n');
        out.append("- OS: ").append(report.os()).append(", ").append(report.cpus()).append(" CPUs\n");
        out.append("- JVM options: ").append(String.join(" ", report.jvmOptions())).append("\n\n");
        out.append("one-to-one: one producer thread, one consumer thread; many-to-one: two producers, one consumer; ")
            .append("msgs/s is what the consumer took while JMH measured, over the iterations' length. round-trip: ")
            .append("ping-pong through two one-to-one queues, ns per round trip. ±: JMH's 99.9% confidence ")
            .append("half-width, relative. Best: the best measured iteration. B/msg: bytes all the benchmark's ")
            .append("threads allocated, per message (a round trip is two). Agrona and JCTools carry references, so ")
            .append("each message comes from a pre-allocated pool that the receiver gives it back to; Celer's ")
            .append("carriers and the Disruptor's events stay in their rings.\n\n");
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
