package io.celer.bench.harness;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * One run of a benchmark from its start to its files: the clock, a scratch directory deleted on close, where the
 * report and the progress go, and the ending every run shares (table, files, failures, exit status).
 */
public final class RunContext implements AutoCloseable
{
    private final OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
    private final long startNanos = System.nanoTime();
    private final PrintStream out;
    private final PrintStream err;
    private final Path work = Runtimes.tempDirectory();

    private RunContext(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * Starts the clock and makes the scratch directory.
     *
     * @param out where the report goes.
     * @param err where progress and failures go.
     * @return the context, to close when the run is over.
     */
    public static RunContext start(final PrintStream out, final PrintStream err)
    {
        return new RunContext(out, err);
    }

    /** @return where the report goes. */
    public PrintStream out()
    {
        return out;
    }

    /** @return where progress and failures go. */
    public PrintStream err()
    {
        return err;
    }

    /** @return the scratch directory, for files the children write. */
    public Path work()
    {
        return work;
    }

    /**
     * When and where the run ran, its duration up to now.
     *
     * @return the environment.
     */
    public Environment environment()
    {
        return new Environment(started.toString(), (System.nanoTime() - startNanos) / 1e9, Runtimes.jdk(),
            Runtimes.os(), Runtime.getRuntime().availableProcessors());
    }

    /**
     * The JSON model of the run, dated now.
     *
     * @param benchmark the benchmark's name in the file.
     * @param settings  the benchmark's settings, a record whose fields stand inline.
     * @param results   one entry per peer that completed.
     * @param failures  what went wrong with the others, or null for a benchmark without such a list.
     * @return the result.
     */
    public Result result(final String benchmark, final Object settings, final List<?> results,
        final List<String> failures)
    {
        return new Result(benchmark, environment(), settings, results, failures);
    }

    /**
     * Ends the run: prints the tables and the report's notes, writes the files when anything completed, and lists
     * what failed.
     *
     * @param report the run.
     * @param outDir the results directory.
     * @return 0 when nothing failed, 1 otherwise.
     */
    public int finish(final Report report, final Path outDir)
    {
        out.println();
        out.print(report.table().text());
        for (final Report.Titled more : report.tables())
        {
            out.println();
            out.println(more.heading());
            out.print(more.table().text());
        }
        if (report.notes() != null)
        {
            out.println();
            out.print(report.notes());
        }
        if (!report.result().results().isEmpty())
        {
            final ResultFiles.Written written = ResultFiles.write(outDir, started, report);
            out.println();
            out.println("Results: " + written.list());
        }
        final List<String> failures = report.failures();
        if (!failures.isEmpty())
        {
            out.println();
            out.println(failures.size() + " run(s) failed:");
            failures.forEach(f -> out.println("  " + f.lines().findFirst().orElse(f)));
        }
        out.flush();
        return failures.isEmpty() ? 0 : 1;
    }

    /**
     * The dated files' stem, for a file a benchmark keeps beside them.
     *
     * @param name the report's name.
     * @param dir  the results directory.
     * @return such as {@code bench-results/tick-to-trade-20260101-120000}.
     */
    public Path stem(final String name, final Path dir)
    {
        return dir.resolve(name + "-" + ResultFiles.stamp(started));
    }

    /** Deletes the scratch directory. */
    @Override
    public void close()
    {
        Runtimes.deleteRecursively(work);
    }
}
