package io.celer.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Assumptions;

/**
 * An {@code openssl} process as a real TLS peer for interop tests: its output is collected line by line,
 * its input written on demand, and {@link #close()} always ends it.
 */
public final class OpenSsl implements AutoCloseable
{
    private static final Duration START = Duration.ofSeconds(20);
    private static Boolean installed;

    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final OutputStream input;
    private final int port;
    private volatile boolean ended;

    private OpenSsl(final Process process, final int port)
    {
        this.process = process;
        this.port = port;
        this.input = process.getOutputStream();
        final Thread reader = new Thread(this::collect, "openssl-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Skips the calling test, saying why, when no {@code openssl} command runs on this machine.
     */
    public static void assumeInstalled()
    {
        Assumptions.assumeTrue(isInstalled(),
            "openssl is not installed (or does not run): skipping the interop test with a real TLS peer");
    }

    private static synchronized boolean isInstalled()
    {
        if (installed == null)
        {
            boolean works;
            try
            {
                final Process version = new ProcessBuilder("openssl", "version").redirectErrorStream(true).start();
                version.getInputStream().readAllBytes();
                works = version.waitFor(20, TimeUnit.SECONDS) && version.exitValue() == 0;
                version.destroyForcibly();
            }
            catch (final IOException ex)
            {
                works = false;
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                works = false;
            }
            installed = works;
        }
        return installed;
    }

    /**
     * Starts {@code openssl s_server} on a free loopback port and waits until it listens.
     *
     * @param options the options after {@code s_server -accept 127.0.0.1:PORT}.
     * @return the running server.
     * @throws IOException if it does not start.
     */
    public static OpenSsl server(final String... options) throws IOException
    {
        IOException failure = null;
        for (int attempt = 0; attempt < 3; attempt++)
        {
            // The free port may be taken again before openssl binds it: then try another.
            final int port = freePort();
            final List<String> command =
                new ArrayList<>(List.of("openssl", "s_server", "-accept", "127.0.0.1:" + port));
            command.addAll(List.of(options));
            final OpenSsl server = start(command, port);
            try
            {
                server.awaitLine("openssl s_server listening", "ACCEPT"::equals, START);
                return server;
            }
            catch (final AssertionError ex)
            {
                server.close();
                failure = new IOException("openssl s_server did not start: " + server.output(), ex);
            }
        }
        throw failure;
    }

    /**
     * Starts {@code openssl s_client}.
     *
     * @param options the options after {@code s_client}.
     * @return the running client.
     * @throws IOException if it cannot start.
     */
    public static OpenSsl client(final String... options) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("openssl", "s_client"));
        command.addAll(List.of(options));
        return start(command, -1);
    }

    private static OpenSsl start(final List<String> command, final int port) throws IOException
    {
        return new OpenSsl(new ProcessBuilder(command).redirectErrorStream(true).start(), port);
    }

    /**
     * A loopback port that was free a moment ago.
     *
     * @return the port.
     * @throws IOException if none can be found.
     */
    public static int freePort() throws IOException
    {
        return Sockets.freePort();
    }

    private void collect()
    {
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.ISO_8859_1)))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                output.add(line);
            }
        }
        catch (final IOException ex)
        {
            // the process ended
        }
        finally
        {
            ended = true;
        }
    }

    /**
     * The port a server listens on.
     *
     * @return the port; -1 for a client.
     */
    public int port()
    {
        return port;
    }

    /**
     * Writes text to the process's standard input.
     *
     * @param text the text, with its line ends.
     * @throws IOException if the process no longer reads.
     */
    public void send(final String text) throws IOException
    {
        input.write(text.getBytes(StandardCharsets.ISO_8859_1));
        input.flush();
    }

    /**
     * Closes the process's standard input: the end of file it reads.
     */
    public void closeInput()
    {
        try
        {
            input.close();
        }
        catch (final IOException ex)
        {
            // already gone
        }
    }

    /**
     * Waits for an output line.
     *
     * @param what    said when it fails.
     * @param line    which line.
     * @param timeout the bound.
     * @return the first line that matches.
     * @throws AssertionError with the output so far if none comes in time.
     */
    public String awaitLine(final String what, final Predicate<String> line, final Duration timeout)
    {
        Await.until(() -> what + "; openssl printed " + output,
            () -> ended || output.stream().anyMatch(line), timeout);
        return output.stream().filter(line).findFirst().orElseThrow(() -> new AssertionError(
            what + ", but openssl ended its output; it printed " + output));
    }

    /**
     * Waits for an output line equal to {@code text}.
     *
     * @param text the line.
     * @return the line.
     */
    public String awaitLine(final String text)
    {
        return awaitLine("the line '" + text + "'", text::equals, Await.DEFAULT);
    }

    /**
     * Waits for the process to exit by itself, and for the rest of its output.
     *
     * @param timeout the bound.
     * @return its exit value.
     * @throws AssertionError if it still runs.
     */
    public int awaitExit(final Duration timeout)
    {
        try
        {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
            {
                throw new AssertionError(
                    "openssl still runs after " + timeout.toMillis() + " ms; it printed " + output);
            }
            Await.until("the rest of openssl's output", () -> ended, timeout);
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    /**
     * Everything printed so far, standard output and error merged.
     *
     * @return the lines.
     */
    public List<String> output()
    {
        return List.copyOf(output);
    }

    /**
     * Ends the process if it still runs and waits for it.
     */
    @Override
    public void close()
    {
        closeInput();
        process.destroy();
        try
        {
            if (!process.waitFor(5, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
