package io.celer.bench.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.ProgressFile;

/**
 * One round of a server process and a client process: starts the server, reads the port it listens on, starts
 * the client on that port, follows the client's progress to its end within bounds, and reads both sides'
 * {@link SideStats}. A client that warms up by itself prints {@link ChildProcess#MEASURING} as it starts
 * measuring, and the server is then told {@code begin}; it prints {@link ChildProcess#MEASURED} as it ends, and
 * the server's stats are taken then, before the client closes its connections. Without these lines the server's
 * figures cover its whole run, connecting and closing included.
 */
public final class ProcessPair
{
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(30);
    private static final String LISTENING = "listening on port ";

    private ProcessPair()
    {
    }

    /**
     * The client's command line, known once the server listens.
     */
    @FunctionalInterface
    public interface Client
    {
        /**
         * The command.
         *
         * @param port     the server's port.
         * @param progress the file the client counts its messages in.
         * @return the command line.
         */
        List<String> command(int port, Path progress);
    }

    /**
     * Runs the pair.
     *
     * @param name     the peer's name, for messages; the processes are its {@code server} and {@code client}.
     * @param work     the scratch directory, for the progress file.
     * @param server   the server's command line.
     * @param client   the client's, given the port and the progress file.
     * @param progress the bar the client's progress moves.
     * @param limit    how long the client may take in all.
     * @return both sides' stats, after both exited.
     * @throws BenchException when a side fails, stalls or overruns.
     */
    public static Sides<SideStats> run(final String name, final Path work, final List<String> server,
        final Client client, final ProgressBar progress, final Duration limit)
    {
        final Path progressFile = work.resolve(name + "-" + System.nanoTime() + ".progress");
        final ProgressFile counter = ProgressFile.create(progressFile);
        try (PeerProcess serverProcess = PeerProcess.start(name + " server", server))
        {
            final int port = Runtimes.port(serverProcess.awaitLine("'listening on port' line",
                line -> line.startsWith(LISTENING), LISTEN_TIMEOUT));
            try (PeerProcess clientProcess = PeerProcess.start(name + " client", client.command(port, progressFile)))
            {
                final SideStats measured = follow(clientProcess, serverProcess, counter, progress, limit);
                if (clientProcess.exitValue() != 0)
                {
                    throw clientProcess.failure("exited with status " + clientProcess.exitValue());
                }
                final SideStats clientStats = stats(clientProcess);
                final SideStats serverStats = measured != null ? measured : stats(serverProcess);
                serverProcess.waitFor(Duration.ofSeconds(10));
                return new Sides<>(clientStats, serverStats);
            }
        }
    }

    /**
     * The arguments every Java client takes, to which the caller adds its own: where the server listens, what
     * to send, where to count it and when to give up.
     *
     * @param port       the server's port.
     * @param messages   measured messages.
     * @param size       bytes per message.
     * @param progress   the file the client counts its messages in.
     * @param maxSeconds the client's time limit, from {@link #maxSeconds(Duration)}.
     * @return the arguments, in a map the caller may add to.
     */
    public static Map<String, Object> clientArgs(final int port, final int messages, final int size,
        final Path progress, final long maxSeconds)
    {
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("port", port);
        args.put("messages", messages);
        args.put("size", size);
        args.put("progress", progress);
        args.put("max-seconds", maxSeconds);
        return args;
    }

    /**
     * A child's time limit in seconds, passed to it as {@code --max-seconds}: the harness's limit and a minute
     * more, so that the harness gives up first and says why.
     *
     * @param limit the harness's limit.
     * @return seconds.
     */
    public static long maxSeconds(final Duration limit)
    {
        return limit.toSeconds() + 60;
    }

    private static SideStats stats(final PeerProcess process)
    {
        return SideStats.parse(process.awaitLine("stats line", line -> line.startsWith(SideStats.PREFIX),
            STATS_TIMEOUT));
    }

    private static void sendIfAlive(final PeerProcess process, final String command)
    {
        try
        {
            process.send(command);
        }
        catch (final BenchException ex)
        {
            if (process.isAlive())
            {
                throw ex;
            }
        }
    }

    /**
     * Follows the client to its exit.
     *
     * @return the server's stats taken when the client said its measure ended, or null when it did not say.
     */
    private static SideStats follow(final PeerProcess client, final PeerProcess server, final ProgressFile counter,
        final ProgressBar progress, final Duration limit)
    {
        final long start = System.nanoTime();
        long lastCount = -1;
        long lastChange = start;
        boolean measuring = false;
        SideStats measured = null;
        while (!client.waitFor(Duration.ofMillis(100)))
        {
            if (!measuring && client.takeLine(ChildProcess.MEASURING))
            {
                // The server answers "begun", which the wait for its stats line skips; it marks within a tick of
                // the client, whose own measure already began.
                measuring = true;
                server.send("begin");
            }
            if (measured == null && client.takeLine(ChildProcess.MEASURED))
            {
                // The client keeps its connections open until told to go on. A server that already stopped (at
                // its RSS cap, say) printed its stats as it exited.
                sendIfAlive(server, "stats");
                measured = stats(server);
                client.send("go on");
            }
            final long now = System.nanoTime();
            final long count = counter.get();
            progress.update(count);
            if (count != lastCount)
            {
                lastCount = count;
                lastChange = now;
            }
            else if (now - lastChange > STALL_TIMEOUT.toNanos())
            {
                throw client.failure("made no progress for " + STALL_TIMEOUT.toSeconds() + " s (at " + count + ")");
            }
            if (now - start > limit.toNanos())
            {
                throw client.failure("did not finish within " + limit.toSeconds() + " s");
            }
        }
        progress.update(counter.get());
        return measured;
    }
}
