package io.celer.http.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real peer (python3, nginx) run as a child process for a test: its output kept for failure messages, waits
 * bounded, destroyed on close.
 */
final class ChildProcess implements AutoCloseable
{
    private static final long START_MILLIS = 20_000;

    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();

    ChildProcess(final Path directory, final List<String> command) throws IOException
    {
        process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = lines.readLine()) != null)
                {
                    output.add(line);
                }
            }
            catch (final IOException ignored)
            {
                // the process ended
            }
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Whether a program runs (on the PATH, or at an absolute path): asked for its version, it answers and exits
     * with 0. A launcher that finds no such program (a version manager's shim) exits with another value.
     */
    static boolean installed(final String program, final String versionOption)
    {
        try
        {
            final Process probe = new ProcessBuilder(program, versionOption).redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            final boolean exited = probe.waitFor(20, TimeUnit.SECONDS);
            probe.destroyForcibly();
            return exited && probe.exitValue() == 0;
        }
        catch (final IOException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Waits for an output line that matches, and returns it. */
    String awaitLine(final Predicate<String> matches) throws IOException
    {
        final long deadline = System.currentTimeMillis() + START_MILLIS;
        while (System.currentTimeMillis() < deadline)
        {
            for (final String line : output)
            {
                if (matches.test(line))
                {
                    return line;
                }
            }
            if (!process.isAlive() && output.stream().noneMatch(matches))
            {
                break;
            }
            pause();
        }
        throw new IOException("the peer did not start: " + output);
    }

    /** Waits until the port accepts connections. */
    void awaitPort(final int port) throws IOException
    {
        final long deadline = System.currentTimeMillis() + START_MILLIS;
        while (System.currentTimeMillis() < deadline && process.isAlive())
        {
            try (Socket socket = new Socket())
            {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
                return;
            }
            catch (final IOException notYet)
            {
                pause();
            }
        }
        throw new IOException("the peer did not listen on " + port + ": " + output);
    }

    List<String> output()
    {
        return output;
    }

    private static void pause()
    {
        try
        {
            Thread.sleep(20);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        process.destroy();
        try
        {
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
