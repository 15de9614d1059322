package io.celer.bench.queues;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.ListStatistics;

import io.celer.bench.harness.RunContext;
import io.celer.bench.harness.Runtimes;

/**
 * Runs the queue benchmarks under JMH, one benchmark at a time in its own JVM, prints the table and writes the
 * result files.
 *
 * @param settings what to run.
 * @param out      where the report goes.
 * @param err      where progress and failures go.
 */
record QueuesRun(Settings settings, PrintStream out, PrintStream err)
{
    /**
     * What every forked JVM needs: Agrona reads the JDK's internal Unsafe; the reactor's selection boxes its
     * ready-key counts from the cache; a fixed heap.
     */
    static final List<String> BASE_JVM_OPTIONS = List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "-XX:AutoBoxCacheMax=65536", "-Xms256m", "-Xmx256m");

    /**
     * What to run.
     *
     * @param cases            the benchmarks, in table order.
     * @param warmupIterations warm-up iterations per benchmark.
     * @param iterations       measured iterations per benchmark.
     * @param warmupMillis     length of each warm-up iteration.
     * @param iterationMillis  length of each measured iteration.
     * @param forks            JVMs per benchmark, one per round.
     * @param jvmOptions       extra options for the forked JVMs.
     * @param outDir           where result files go.
     */
    record Settings(List<QueueCase> cases, int warmupIterations, int iterations, int warmupMillis, int iterationMillis,
        int forks, List<String> jvmOptions, Path outDir)
    {
    }

    /**
     * Runs every benchmark, prints the table and writes the result files.
     *
     * @return 0 when every benchmark completed, 1 otherwise.
     */
    int run()
    {
        final List<String> jvmOptions = new ArrayList<>(BASE_JVM_OPTIONS);
        jvmOptions.addAll(settings.jvmOptions());
        out.printf("Queues: %d benchmark(s) under JMH, %d fork(s) each, %d warm-up iteration(s) of %d ms, %d measured "
            + "of %d ms%n", settings.cases().size(), settings.forks(), settings.warmupIterations(),
            settings.warmupMillis(), settings.iterations(), settings.iterationMillis());
        out.println("JDK: " + Runtimes.jdk() + "; forked JVM options: " + String.join(" ", jvmOptions));
        out.flush();
        try (RunContext run = RunContext.start(out, err))
        {
            // Forks run in turns, every benchmark once a round: the host moves this VM's cores around every few
            // minutes, and a round trip costs about 150 ns in one placement and 900 in another, so each
            // implementation's forks must meet the same placements for their medians to compare.
            final List<QueueCase> cases = settings.cases();
            final List<List<BenchmarkResult>> forks = new ArrayList<>();
            final List<String> failures = new ArrayList<>();
            final String[] failed = new String[cases.size()];
            for (int i = 0; i < cases.size(); i++)
            {
                forks.add(new ArrayList<>());
            }
            for (int round = 1; round <= settings.forks(); round++)
            {
                for (int i = 0; i < cases.size(); i++)
                {
                    if (failed[i] == null)
                    {
                        failed[i] = runFork(run, cases.get(i), jvmOptions, round, forks.get(i));
                    }
                }
            }
            final List<QueuesReport.Entry> entries = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++)
            {
                final QueueCase queueCase = cases.get(i);
                if (failed[i] != null)
                {
                    failures.add(failed[i]);
                    continue;
                }
                try
                {
                    final QueuesReport.Entry entry = entry(queueCase, forks.get(i));
                    entries.add(entry);
                    err.printf("%s %s: %,.1f %s, %.2f B/msg%s%n", queueCase.kind().id(), queueCase.implementation(),
                        entry.score(), entry.unit(), entry.bytesPerMessage(), entry.messagesPerTake() == null ? ""
                            : String.format(Locale.ROOT, ", %.1f msgs/take", entry.messagesPerTake()));
                }
                catch (final RuntimeException ex)
                {
                    failures.add(queueCase.kind().id() + " " + queueCase.implementation() + ": " + ex);
                }
            }
            final List<QueuesReport.Entry> counted = QueuesReport.withRoundsLed(entries);
            final QueuesReport json = new QueuesReport(jvmOptions, settings.warmupIterations(),
                settings.warmupMillis(), settings.iterations(), settings.iterationMillis(), settings.forks());
            return run.finish(QueuesReport.report(json, run.result("queues", json, counted, failures)),
                settings.outDir());
        }
    }

    /**
     * Runs one fork of one benchmark and keeps its result.
     *
     * @return null when it ran, else what failed.
     */
    private String runFork(final RunContext run, final QueueCase queueCase, final List<String> jvmOptions,
        final int round, final List<BenchmarkResult> into)
    {
        final String name = queueCase.kind().id() + " " + queueCase.implementation();
        err.printf("[fork %d/%d] %s ...%n", round, settings.forks(), name);
        err.flush();
        final Path log = run.work().resolve(queueCase.name() + "-" + round + ".log");
        try
        {
            into.addAll(runOne(queueCase, jvmOptions, log).getBenchmarkResults());
            return null;
        }
        catch (final RunnerException | RuntimeException ex)
        {
            final String failure = name + ": " + ex;
            err.println("FAILED " + failure);
            printTail(log);
            return failure;
        }
    }

    private RunResult runOne(final QueueCase queueCase, final List<String> jvmOptions, final Path log)
        throws RunnerException
    {
        final TimeValue warmup = TimeValue.milliseconds(settings.warmupMillis());
        final TimeValue time = TimeValue.milliseconds(settings.iterationMillis());
        final Options options = new OptionsBuilder()
            .include("^" + Pattern.quote(queueCase.benchmark()) + "$")
            .forks(1)
            .warmupIterations(settings.warmupIterations())
            .warmupTime(warmup)
            .measurementIterations(settings.iterations())
            .measurementTime(time)
            .jvmArgs(jvmOptions.toArray(String[]::new))
            .shouldFailOnError(true)
            .verbosity(VerboseMode.NORMAL)
            .output(log.toString())
            .build();
        final Collection<RunResult> results = new Runner(options).run();
        if (results.size() != 1)
        {
            throw new IllegalStateException("JMH ran " + results.size() + " benchmarks for " + queueCase.benchmark());
        }
        return results.iterator().next();
    }

    private QueuesReport.Entry entry(final QueueCase queueCase, final List<BenchmarkResult> forkResults)
    {
        final boolean rate = queueCase.kind().throughput();
        // Messages counted while measuring, over the iteration's length: not JMH's per-thread time, which is near
        // zero for a consumer descheduled as the iteration starts. A round trip's score is JMH's own.
        final double seconds = settings.iterationMillis() / 1000.0;
        final List<Double> iterationScores = new ArrayList<>();
        final List<Double> forkMeans = new ArrayList<>();
        double messages = 0;
        double allocated = 0;
        double takes = 0;
        for (final BenchmarkResult fork : forkResults)
        {
            final ListStatistics forkScores = new ListStatistics();
            for (final IterationResult iteration : fork.getIterationResults())
            {
                final Map<String, Result> counters = iteration.getSecondaryResults();
                allocated += required(counters, "allocatedBytes").getScore();
                final double score;
                if (rate)
                {
                    final double taken = required(counters, "messages").getScore();
                    messages += taken;
                    takes += required(counters, "takes").getScore();
                    score = taken / seconds;
                }
                else
                {
                    // Two messages per round trip.
                    messages += 2 * required(counters, "roundTrips").getScore();
                    score = iteration.getPrimaryResult().getScore();
                }
                iterationScores.add(score);
                forkScores.addValue(score);
            }
            forkMeans.add(forkScores.getMean());
        }
        final ListStatistics scores = new ListStatistics();
        iterationScores.forEach(scores::addValue);
        final double score = median(forkMeans);
        final double error = scores.getN() > 1 ? scores.getMeanErrorAt(0.999) : Double.NaN;
        final double bytesPerMessage = allocated / messages;
        final Double messagesPerTake = rate && takes > 0 ? messages / takes : null;
        if (!(score > 0) || Double.isInfinite(score) || !(bytesPerMessage >= 0))
        {
            throw new IllegalStateException("no message got across: score " + score + ", B/msg " + bytesPerMessage);
        }
        return new QueuesReport.Entry(queueCase.kind().id(), queueCase.implementation(), queueCase.queue(),
            queueCase.kind().unit(), score, Double.isNaN(error) ? null : error, bytesPerMessage, messagesPerTake,
            iterationScores, forkMeans, null);
    }

    /** The median of the forks' means: one fork whose threads the scheduler placed badly does not decide. */
    static double median(final List<Double> forkMeans)
    {
        final double[] sorted = forkMeans.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static Result required(final Map<String, Result> results, final String name)
    {
        final Result result = results.get(name);
        if (result == null)
        {
            throw new IllegalStateException("JMH reported no '" + name + "' counter, only " + results.keySet());
        }
        return result;
    }

    private void printTail(final Path log)
    {
        try
        {
            final List<String> lines = Files.readAllLines(log);
            for (final String line : lines.subList(Math.max(0, lines.size() - 40), lines.size()))
            {
                err.println("  " + line);
            }
        }
        catch (final IOException ex)
        {
            err.println("  (no JMH log: " + ex.getMessage() + ")");
        }
    }
}
