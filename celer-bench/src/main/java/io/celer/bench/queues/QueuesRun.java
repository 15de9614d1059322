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
     * @param forks            JVMs per benchmark.
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
            final List<QueuesReport.Entry> entries = new ArrayList<>();
            final List<String> failures = new ArrayList<>();
            int index = 0;
            for (final QueueCase queueCase : settings.cases())
            {
                index++;
                err.printf("[%d/%d] %s %s ...%n", index, settings.cases().size(), queueCase.kind().id(),
                    queueCase.implementation());
                err.flush();
                final Path log = run.work().resolve(queueCase.name() + ".log");
                try
                {
                    final QueuesReport.Entry entry = entry(queueCase, runOne(queueCase, jvmOptions, log));
                    entries.add(entry);
                    err.printf("[%d/%d] %s %s: %,.1f %s, %.2f B/msg%s%n", index, settings.cases().size(),
                        queueCase.kind().id(), queueCase.implementation(), entry.score(), entry.unit(),
                        entry.bytesPerMessage(), entry.messagesPerTake() == null ? ""
                            : String.format(Locale.ROOT, ", %.1f msgs/take", entry.messagesPerTake()));
                }
                catch (final RunnerException | RuntimeException ex)
                {
                    final String failure = queueCase.kind().id() + " " + queueCase.implementation() + ": " + ex;
                    failures.add(failure);
                    err.println("FAILED " + failure);
                    printTail(log);
                }
            }
            final QueuesReport json = new QueuesReport(jvmOptions, settings.warmupIterations(),
                settings.warmupMillis(), settings.iterations(), settings.iterationMillis(), settings.forks());
            return run.finish(QueuesReport.report(json, run.result("queues", json, entries, failures)),
                settings.outDir());
        }
    }

    private RunResult runOne(final QueueCase queueCase, final List<String> jvmOptions, final Path log)
        throws RunnerException
    {
        final TimeValue warmup = TimeValue.milliseconds(settings.warmupMillis());
        final TimeValue time = TimeValue.milliseconds(settings.iterationMillis());
        final Options options = new OptionsBuilder()
            .include("^" + Pattern.quote(queueCase.benchmark()) + "$")
            .forks(settings.forks())
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

    private QueuesReport.Entry entry(final QueueCase queueCase, final RunResult result)
    {
        final Map<String, Result> secondary = result.getSecondaryResults();
        final double score;
        final double error;
        final double bytesPerMessage;
        Double messagesPerTake = null;
        final List<Double> iterationScores = new ArrayList<>();
        if (queueCase.kind().throughput())
        {
            // Messages counted while measuring, over the iteration's length: not JMH's per-thread time, which is
            // near zero for a consumer descheduled as the iteration starts.
            final double seconds = settings.iterationMillis() / 1000.0;
            double messages = 0;
            double allocated = 0;
            double takes = 0;
            final List<Double> forkMeans = new ArrayList<>();
            for (final BenchmarkResult fork : result.getBenchmarkResults())
            {
                final ListStatistics forkRates = new ListStatistics();
                for (final IterationResult iteration : fork.getIterationResults())
                {
                    final double taken = required(iteration.getSecondaryResults(), "messages").getScore();
                    messages += taken;
                    allocated += required(iteration.getSecondaryResults(), "allocatedBytes").getScore();
                    takes += required(iteration.getSecondaryResults(), "takes").getScore();
                    iterationScores.add(taken / seconds);
                    forkRates.addValue(taken / seconds);
                }
                forkMeans.add(forkRates.getMean());
            }
            final ListStatistics rates = new ListStatistics();
            iterationScores.forEach(rates::addValue);
            score = median(forkMeans);
            error = rates.getN() > 1 ? rates.getMeanErrorAt(0.999) : Double.NaN;
            bytesPerMessage = allocated / messages;
            messagesPerTake = takes > 0 ? messages / takes : null;
        }
        else
        {
            error = result.getPrimaryResult().getScoreError();
            // Two messages per round trip.
            bytesPerMessage = required(secondary, "allocatedBytes").getScore()
                / (2 * required(secondary, "roundTrips").getScore());
            final List<Double> forkMeans = new ArrayList<>();
            for (final BenchmarkResult fork : result.getBenchmarkResults())
            {
                for (final IterationResult iteration : fork.getIterationResults())
                {
                    iterationScores.add(iteration.getPrimaryResult().getScore());
                }
                forkMeans.add(fork.getPrimaryResult().getScore());
            }
            score = median(forkMeans);
        }
        if (!(score > 0) || Double.isInfinite(score) || !(bytesPerMessage >= 0))
        {
            throw new IllegalStateException("no message got across: score " + score + ", B/msg " + bytesPerMessage);
        }
        return new QueuesReport.Entry(queueCase.kind().id(), queueCase.implementation(), queueCase.queue(),
            queueCase.kind().unit(), score, Double.isNaN(error) ? null : error, bytesPerMessage, messagesPerTake,
            iterationScores);
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
