package io.celer.bench.peer.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

import io.celer.bench.peer.ChildProcess;
import picocli.CommandLine;

/**
 * Runs a peer as the harness's child: parses its options, says where it listens, obeys commands on stdin and
 * reports its stats when it stops.
 *
 * <p>Stdin carries one command a line: {@code begin} marks the start of the measured phase (the probe also
 * begins when the server starts) and answers {@code begun}, {@code stats} prints the {@code stats ...} line since
 * the mark, {@code memory} runs full collections and prints the {@code memory ...} line of {@link MemoryAfterGc},
 * {@code fill-young} fills the young generation once and prints the {@code young ...} line of
 * {@link YoungGenerationFill}, {@code classes} prints the {@code classes ...} line of {@link ClassHistogram},
 * {@code stop} or the end of input (the harness is gone) prints the stats and exits. SIGTERM does the same through
 * a shutdown hook.
 */
public final class PeerMain
{
    private PeerMain()
    {
    }

    /**
     * Sets a server's options, for a test that runs it in-process.
     *
     * @param server its {@code @Command} object.
     * @param args   its options.
     * @param <T>    its type.
     * @return the server.
     * @throws CommandLine.ParameterException if an option is wrong.
     */
    public static <T extends PeerServer> T configure(final T server, final String... args)
    {
        new CommandLine(server).parseArgs(args);
        return server;
    }

    /**
     * Runs a server until stdin closes, {@code stop} or SIGTERM.
     *
     * @param server its {@code @Command} object.
     * @param args   the main arguments.
     */
    public static void run(final PeerServer server, final String[] args)
    {
        final CommandLine command = new CommandLine(server);
        try
        {
            command.parseArgs(args);
        }
        catch (final CommandLine.ParameterException ex)
        {
            System.err.println(ex.getMessage());
            command.usage(System.err);
            System.exit(2);
        }
        if (command.isUsageHelpRequested())
        {
            command.usage(System.out);
            return;
        }
        final PeerServer.Serving serving;
        try
        {
            serving = server.start();
        }
        catch (final Exception ex)
        {
            ChildProcess.fail(command.getCommandName() + " cannot start", ex);
            return;
        }
        final AtomicBoolean stopped = new AtomicBoolean();
        final Runnable stop = () ->
        {
            if (stopped.compareAndSet(false, true))
            {
                ChildProcess.report(serving.probe().statsLine());
                server.stop();
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "peer-stop"));
        serving.probe().begin();
        ChildProcess.listening(serving.port());
        obey(serving.probe());
        stop.run();
        System.exit(0);
    }

    private static void obey(final ServerProbe probe)
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                switch (line.trim())
                {
                    case "begin":
                        probe.begin();
                        // The harness waits for this before loading, so no request falls before the mark.
                        ChildProcess.report("begun");
                        break;
                    case "stats":
                        ChildProcess.report(probe.statsLine());
                        break;
                    case "memory":
                        ChildProcess.report(MemoryAfterGc.line());
                        break;
                    case "fill-young":
                        ChildProcess.report(YoungGenerationFill.fill());
                        break;
                    case "classes":
                        ChildProcess.report(ClassHistogram.line());
                        break;
                    case "stop":
                        return;
                    default:
                        System.err.println("unknown command '" + line
                            + "': begin, stats, memory, fill-young, classes or stop");
                }
            }
        }
        catch (final IOException ex)
        {
            // Treated like the end of input: the harness is gone.
        }
    }
}
