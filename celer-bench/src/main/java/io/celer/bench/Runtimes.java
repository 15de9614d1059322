package io.celer.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import io.celer.bench.peer.ProgressFile;

/**
 * Small chores shared by the runs: following a client, naming the JDK, scratch files.
 */
final class Runtimes
{
    private Runtimes()
    {
    }

    /**
     * Waits for a client to exit while drawing its progress.
     *
     * @param client   the client.
     * @param counter  the count it publishes.
     * @param progress the bar.
     * @param limit    the longest the client may take.
     * @param stall    the longest its count may stand still.
     * @throws BenchException if it overruns either bound.
     */
    static void follow(final PeerProcess client, final ProgressFile counter, final ProgressBar progress,
        final Duration limit, final Duration stall)
    {
        final long start = System.nanoTime();
        long lastCount = -1;
        long lastChange = start;
        while (!client.waitFor(Duration.ofMillis(100)))
        {
            final long now = System.nanoTime();
            final long count = counter.get();
            progress.update(count);
            if (count != lastCount)
            {
                lastCount = count;
                lastChange = now;
            }
            else if (now - lastChange > stall.toNanos())
            {
                throw client.failure("made no progress for " + stall.toSeconds() + " s (at " + count + ")");
            }
            if (now - start > limit.toNanos())
            {
                throw client.failure("did not finish within " + limit.toSeconds() + " s");
            }
        }
        progress.update(counter.get());
    }

    /**
     * The port in a server's {@code listening on port N} line.
     *
     * @param line the line.
     * @return the port.
     */
    static int port(final String line)
    {
        return Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1).trim());
    }

    /**
     * The running JDK.
     *
     * @return vendor and version.
     */
    static String jdk()
    {
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version");
    }

    /**
     * The operating system.
     *
     * @return name, kernel version and architecture.
     */
    static String os()
    {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch");
    }

    /**
     * A fresh scratch directory.
     *
     * @return the directory.
     */
    static Path tempDirectory()
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
    static void deleteRecursively(final Path dir)
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
