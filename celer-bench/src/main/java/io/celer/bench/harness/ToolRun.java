package io.celer.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One bounded run of a load tool such as ab or wrk: its output, stdout and stderr together, kept in a file of the
 * scratch directory and read once it exits; killed when it overruns.
 *
 * @param exitValue its status.
 * @param output    everything it printed.
 */
public record ToolRun(int exitValue, String output)
{
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
        final Process process;
        try
        {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
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
            return new ToolRun(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
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
