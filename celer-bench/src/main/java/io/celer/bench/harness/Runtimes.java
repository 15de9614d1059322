package io.celer.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Small chores shared by the runs: naming the JDK and the OS, scratch files.
 */
public final class Runtimes
{
    private Runtimes()
    {
    }

    /**
     * The port in a server's {@code listening on port N} line.
     *
     * @param line the line.
     * @return the port.
     */
    public static int port(final String line)
    {
        return Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1).trim());
    }

    /**
     * The running JDK.
     *
     * @return vendor and version.
     */
    public static String jdk()
    {
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version");
    }

    /**
     * The operating system.
     *
     * @return name, kernel version and architecture.
     */
    public static String os()
    {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch");
    }

    /**
     * A fresh scratch directory.
     *
     * @return the directory.
     */
    public static Path tempDirectory()
    {
        try
        {
            return Files.createTempDirectory("celer-bench");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Deletes a scratch directory, quietly.
     *
     * @param dir the directory.
     */
    public static void deleteRecursively(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (final IOException | UncheckedIOException ex)
        {
            // Scratch files in the temporary directory; the system cleans them eventually.
        }
    }
}
