package io.celer.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;

import picocli.CommandLine;

/**
 * Runs {@code bench} in this process on arguments it should refuse, writing to a test's directory and keeping
 * the usage message out of the test's output.
 */
public final class Refusals
{
    private Refusals()
    {
    }

    /**
     * The exit status of one run.
     *
     * @param out  where its result files would go.
     * @param args the benchmark and its options, without {@code --out}.
     * @return 2 for a usage error.
     */
    public static int exitStatus(final Path out, final String... args)
    {
        final CommandLine bench = Bench.commandLine();
        bench.setErr(new PrintWriter(new StringWriter()));
        final String[] all = Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--out";
        all[args.length + 1] = out.toString();
        return bench.execute(all);
    }
}
