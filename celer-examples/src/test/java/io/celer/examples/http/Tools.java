package io.celer.examples.http;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real HTTP peers (curl, ab, wrk, h2load) run as child processes: found on the PATH or the test is skipped
 * with a message saying which package brings the tool, and every run is bounded in time.
 */
final class Tools
{
    private Tools()
    {
    }

    /**
     * What a run printed and how it ended.
     *
     * @param exitCode the process's exit code.
     * @param output   its standard output and error, merged.
     */
    record Run(int exitCode, String output)
    {
    }

    /**
     * Skips the calling test unless the tool is installed.
     *
     * @param tool        the command.
     * @param debPackage  the Debian package that brings it.
     */
    static void require(final String tool, final String debPackage)
    {
        assumeTrue(onPath(tool), tool + " is not installed (Debian package " + debPackage + "; ./celer test " +
            "installs it as root): skipped");
    }

    /**
     * Runs a command to its end, or kills it after the time limit and fails.
     *
     * @param seconds the limit.
     * @param command the command and its arguments.
     * @return what it printed and its exit code.
     * @throws IOException          if it cannot start.
     * @throws InterruptedException if interrupted while waiting.
     */
    static Run run(final int seconds, final List<String> command) throws IOException, InterruptedException
    {
        // The output goes to a file, so a chatty tool never blocks on a full pipe while this thread waits.
        final Path log = Files.createTempFile("celer-peer", ".log");
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
            if (!process.waitFor(seconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(command + " did not finish in " + seconds + " s: " + Files.readString(log,
                    StandardCharsets.ISO_8859_1));
            }
            return new Run(process.exitValue(), Files.readString(log, StandardCharsets.ISO_8859_1));
        }
        finally
        {
            Files.deleteIfExists(log);
        }
    }

    private static boolean onPath(final String command)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator))
        {
            if (new File(dir, command).canExecute())
            {
                return true;
            }
        }
        return false;
    }
}
