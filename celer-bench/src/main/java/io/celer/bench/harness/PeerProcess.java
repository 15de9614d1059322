package io.celer.bench.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One child process of a run (a peer's server or client), its output captured line by line.
 *
 * <p>Every started process is remembered until closed, and a shutdown hook kills whatever is left, so a
 * failing or interrupted harness leaves nothing spinning. The child's stdin stays open, silent unless the harness
 * sends a command line ({@link #send}): Java peers exit when it closes, which is when the harness dies.
 */
final class PeerProcess implements AutoCloseable
{
    private static final Set<PeerProcess> LIVE = ConcurrentHashMap.newKeySet();
    private static final int TAIL_LINES = 40;

    static
    {
        Runtime.getRuntime().addShutdownHook(new Thread(PeerProcess::killAll, "kill-peers"));
    }

    private final String name;
    private final List<String> command;
    private final Process process;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final Deque<String> tail = new ArrayDeque<>();

    private PeerProcess(final String name, final List<String> command, final Process process)
    {
        this.name = name;
        this.command = command;
        this.process = process;
    }

    /**
     * Starts a child.
     *
     * @param name    what it is, for messages ("celer server").
     * @param command the command line.
     * @return the running process.
     */
    public static PeerProcess start(final String name, final List<String> command)
    {
        final Process process;
        try
        {
            process = new ProcessBuilder(command).start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + name + ": " + String.join(" ", command), ex);
        }
        final PeerProcess child = new PeerProcess(name, command, process);
        LIVE.add(child);
        child.pump(process.getInputStream(), true);
        child.pump(process.getErrorStream(), false);
        return child;
    }

    private void pump(final InputStream in, final boolean isStdout)
    {
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = lines.readLine()) != null)
                {
                    remember((isStdout ? "" : "! ") + line);
                    if (isStdout)
                    {
                        stdout.add(line);
                    }
                }
            }
            catch (final IOException ex)
            {
                // The process went away; what was read is kept.
            }
        }, name + (isStdout ? " stdout" : " stderr"));
        reader.setDaemon(true);
        reader.start();
    }

    private void remember(final String line)
    {
        synchronized (tail)
        {
            if (tail.size() == TAIL_LINES)
            {
                tail.removeFirst();
            }
            tail.addLast(line);
        }
    }

    /**
     * Waits for a line on stdout, skipping others.
     *
     * @param what    describes the line, for the failure message.
     * @param matches the line wanted.
     * @param timeout the bound.
     * @return the line.
     * @throws BenchException if the process exits or the time runs out first.
     */
    public String awaitLine(final String what, final Predicate<String> matches, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        try
        {
            while (true)
            {
                final String line = stdout.poll(50, TimeUnit.MILLISECONDS);
                if (line != null)
                {
                    if (matches.test(line))
                    {
                        return line;
                    }
                    continue;
                }
                if (!process.isAlive() && stdout.isEmpty())
                {
                    // Give the reader a moment to hand over the last lines.
                    final String last = stdout.poll(200, TimeUnit.MILLISECONDS);
                    if (last != null)
                    {
                        if (matches.test(last))
                        {
                            return last;
                        }
                        continue;
                    }
                    throw failure("exited with status " + process.exitValue() + " before printing " + what);
                }
                if (System.nanoTime() - deadline > 0)
                {
                    throw failure("printed no " + what + " within " + timeout.toSeconds() + " s");
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw failure("interrupted while waiting for " + what);
        }
    }

    /**
     * Takes a line from what stdout printed so far, without waiting and leaving the others for {@link #awaitLine}.
     *
     * @param line the line wanted.
     * @return true when it was there.
     */
    public boolean takeLine(final String line)
    {
        return stdout.removeIf(line::equals);
    }

    /**
     * Writes a command line to the child's stdin, as the HTTP peers read it ({@code begin}, {@code stats}).
     *
     * @param line the command, without the newline.
     * @throws BenchException if the child no longer reads.
     */
    public void send(final String line)
    {
        try
        {
            process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            process.getOutputStream().flush();
        }
        catch (final IOException ex)
        {
            throw failure("did not take '" + line + "': " + ex.getMessage());
        }
    }

    /**
     * Waits for the process to exit.
     *
     * @param timeout the bound.
     * @return true when it exited in time.
     */
    public boolean waitFor(final Duration timeout)
    {
        try
        {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether it still runs.
     *
     * @return true while alive.
     */
    public boolean isAlive()
    {
        return process.isAlive();
    }

    /**
     * Its exit status.
     *
     * @return the status.
     * @throws IllegalThreadStateException if it still runs.
     */
    public int exitValue()
    {
        return process.exitValue();
    }

    /**
     * Its process id: a command started through {@code sh -c 'ulimit ...; exec ...'} keeps the shell's.
     *
     * @return the pid.
     */
    public long pid()
    {
        return process.pid();
    }

    /**
     * A failure of this process, with the end of its output.
     *
     * @param what what went wrong.
     * @return the exception to throw.
     */
    public BenchException failure(final String what)
    {
        final List<String> lines;
        synchronized (tail)
        {
            lines = new ArrayList<>(tail);
        }
        final StringBuilder message = new StringBuilder(name).append(' ').append(what)
            .append("\n  command: ").append(String.join(" ", command));
        if (!lines.isEmpty())
        {
            message.append("\n  last output (! marks stderr):");
            for (final String line : lines)
            {
                message.append("\n    ").append(line);
            }
        }
        return new BenchException(message.toString());
    }

    /**
     * Kills the process, and its children, if it still runs.
     */
    @Override
    public void close()
    {
        LIVE.remove(this);
        kill(process);
    }

    private static void kill(final Process process)
    {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        if (process.isAlive())
        {
            process.destroy();
            try
            {
                if (!process.waitFor(2, TimeUnit.SECONDS))
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

    private static void killAll()
    {
        for (final PeerProcess child : LIVE)
        {
            child.process.destroyForcibly();
        }
    }

    @Override
    public String toString()
    {
        return name + " (pid " + process.pid() + ")";
    }
}
