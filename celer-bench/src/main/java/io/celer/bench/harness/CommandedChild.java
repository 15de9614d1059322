package io.celer.bench.harness;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * A child process the harness talks to while it runs, for benchmarks whose load comes from elsewhere (ab, wrk,
 * a client started later): a server told {@code begin} and {@code stats} on its stdin, or a client whose lines
 * mark its phases. Closing it kills it, if it still runs.
 */
public final class CommandedChild implements AutoCloseable
{
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(30);
    private static final String LISTENING = "listening on port ";

    private final PeerProcess process;

    private CommandedChild(final PeerProcess process)
    {
        this.process = process;
    }

    /**
     * Starts a child.
     *
     * @param name    what it is, for messages ("celer server").
     * @param command the command line.
     * @return the running child.
     */
    public static CommandedChild start(final String name, final List<String> command)
    {
        return new CommandedChild(PeerProcess.start(name, command));
    }

    /**
     * Waits for a server's {@code listening on port N} line.
     *
     * @return the port.
     * @throws BenchException if the child exits or prints none within a minute.
     */
    public int awaitPort()
    {
        return Runtimes.port(process.awaitLine("'listening on port' line", line -> line.startsWith(LISTENING),
            LISTEN_TIMEOUT));
    }

    /**
     * Sends a command line to its stdin.
     *
     * @param command such as {@code begin}.
     */
    public void send(final String command)
    {
        process.send(command);
    }

    /**
     * Marks the start of a server's measured phase: sends {@code begin} and waits for its {@code begun}.
     *
     * @throws BenchException if it does not answer within 30 s.
     */
    public void begin()
    {
        process.send("begin");
        awaitLine("'begun' line", "begun"::equals, STATS_TIMEOUT);
    }

    /**
     * Asks for its stats since the last {@code begin}, and reads them.
     *
     * @return the stats.
     * @throws BenchException if none come within 30 s.
     */
    public SideStats stats()
    {
        process.send("stats");
        return awaitStats();
    }

    /**
     * Reads the stats line it prints by itself (a client, as it ends).
     *
     * @return the stats.
     * @throws BenchException if none come within 30 s.
     */
    public SideStats awaitStats()
    {
        return SideStats.parse(awaitLine("stats line", line -> line.startsWith(SideStats.PREFIX), STATS_TIMEOUT));
    }

    /**
     * Waits for a line on stdout, skipping others.
     *
     * @param what    describes the line, for the failure message.
     * @param matches the line wanted.
     * @param timeout the bound.
     * @return the line.
     * @throws BenchException if the child exits or the time runs out first.
     */
    public String awaitLine(final String what, final Predicate<String> matches, final Duration timeout)
    {
        return process.awaitLine(what, matches, timeout);
    }

    /**
     * Waits for it to exit.
     *
     * @param timeout the bound.
     * @return true when it exited in time.
     */
    public boolean waitFor(final Duration timeout)
    {
        return process.waitFor(timeout);
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
     * Its process id, for what the harness reads of it under {@code /proc}.
     *
     * @return the pid.
     */
    public long pid()
    {
        return process.pid();
    }

    /**
     * A failure of this child, with the end of its output.
     *
     * @param what what went wrong.
     * @return the exception to throw.
     */
    public BenchException failure(final String what)
    {
        return process.failure(what);
    }

    /** Kills it, and its children, if it still runs. */
    @Override
    public void close()
    {
        process.close();
    }
}
