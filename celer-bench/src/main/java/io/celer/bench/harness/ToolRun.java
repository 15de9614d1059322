package io.celer.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One bounded run of a load tool such as ab or wrk: its output, stdout and stderr together, kept in a file of the
 * scratch directory and read once it exits; killed when it overruns. The tool runs under bash, whose {@code times}
 * tells the CPU the tool used once it has exited, when no process handle can tell it any more.
 *
 * @param exitValue   its status.
 * @param output      everything it printed.
 * @param cpuSeconds  the user and kernel CPU it used, or null when bash did not say.
 * @param wallSeconds how long it ran.
 */
public record ToolRun(int exitValue, String output, Double cpuSeconds, double wallSeconds)
{
    /** bash's {@code times}: two lines of user and system time, the shell's own, then its children's. */
    private static final Pattern TIMES = Pattern.compile("(?m)^(\\d+)m([0-9.]+)s (\\d+)m([0-9.]+)s\\n?\\z");

    /**
     * Runs a tool to its end.
     *
     * @param name    what it is, for messages ("ab -c 4").
     * @param command the command line.
     * @param work    the scratch directory.
     * @param limit   how long it may take.
     * @return its status and output.
     * @throws BenchException if it does not start or overruns.
     */
    public static ToolRun run(final String name, final List<String> command, final Path work, final Duration limit)
    {
        final Path log = work.resolve("tool-" + System.nanoTime() + ".out");
        final List<String> timed = new ArrayList<>(List.of("bash", "-c", "\"$@\"; status=$?; times; exit $status",
            "tool"));
        timed.addAll(command);
        final ProcessBuilder builder = new ProcessBuilder(timed);
        // The C locale: a decimal point in the tool's figures and in bash's times.
        builder.environment().put("LC_ALL", "C");
        final long start = System.nanoTime();
        final Process process;
        try
        {
            process = builder.redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot start " + name + ": " + ex.getMessage());
        }
        try
        {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS))
            {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new BenchException(name + " did not finish within " + limit.toSeconds() + " s: "
                    + String.join(" ", command));
            }
            final double wallSeconds = (System.nanoTime() - start) / 1e9;
            return parse(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8), wallSeconds);
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BenchException(name + " interrupted");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the output of " + name, ex);
        }
    }

    /**
     * The tool's share of one core while it ran.
     *
     * @return percent, or null when its CPU time is unknown.
     */
    public Double cpuPercent()
    {
        return cpuSeconds == null || wallSeconds <= 0 ? null : 100 * cpuSeconds / wallSeconds;
    }

    /**
     * The tool's CPU time, user and kernel, per request or message it handled.
     *
     * @param count what it handled.
     * @return microseconds each, or null when its CPU time is unknown or it handled nothing.
     */
    public Double cpuMicrosPer(final long count)
    {
        return cpuSeconds == null || count <= 0 ? null : cpuSeconds * 1e6 / count;
    }

    /**
     * Splits bash's {@code times} off a tool's output.
     *
     * @param exitValue   the status.
     * @param text        the tool's output, then bash's two lines of times.
     * @param wallSeconds how long it ran.
     * @return the run, its output without the times.
     */
    static ToolRun parse(final int exitValue, final String text, final double wallSeconds)
    {
        final Matcher children = TIMES.matcher(text);
        if (!children.find())
        {
            return new ToolRun(exitValue, text, null, wallSeconds);
        }
        final double cpu = Long.parseLong(children.group(1)) * 60 + Double.parseDouble(children.group(2)) +
            Long.parseLong(children.group(3)) * 60 + Double.parseDouble(children.group(4));
        // The shell's own line stands just before its children's.
        final String rest = text.substring(0, children.start());
        final int shellLine = rest.lastIndexOf('\n', rest.length() - 2);
        return new ToolRun(exitValue, rest.substring(0, shellLine + 1), cpu, wallSeconds);
    }

    /**
     * Whether a program is on the PATH.
     *
     * @param program such as {@code ab}.
     * @return true when an executable of that name is found.
     */
    public static boolean installed(final String program)
    {
        final String path = System.getenv("PATH");
        if (path != null)
        {
            for (final String dir : path.split(java.io.File.pathSeparator))
            {
                if (Files.isExecutable(Path.of(dir, program)))
                {
                    return true;
                }
            }
        }
        return false;
    }
}
