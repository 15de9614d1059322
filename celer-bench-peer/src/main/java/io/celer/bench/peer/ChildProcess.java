package io.celer.bench.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What every peer's main does the same way: read its arguments, say where it listens, die with the harness.
 */
public final class ChildProcess
{
    private final Map<String, String> args = new HashMap<>();

    private ChildProcess(final String[] argv)
    {
        for (final String arg : argv)
        {
            final int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0)
            {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            args.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
    }

    /**
     * Parses {@code --name=value} arguments and starts watching the harness.
     *
     * @param argv the main arguments.
     * @return the child.
     */
    public static ChildProcess start(final String[] argv)
    {
        final ChildProcess child = new ChildProcess(argv);
        final Thread watcher = new Thread(ChildProcess::exitWhenHarnessGone, "harness-watch");
        watcher.setDaemon(true);
        watcher.start();
        return child;
    }

    /**
     * An integer argument.
     *
     * @param name     its name.
     * @param fallback when absent.
     * @return the value.
     */
    public int intArg(final String name, final int fallback)
    {
        final String value = args.get(name);
        return value == null ? fallback : Integer.parseInt(value);
    }

    /**
     * A string argument.
     *
     * @param name     its name.
     * @param fallback when absent.
     * @return the value.
     */
    public String arg(final String name, final String fallback)
    {
        return args.getOrDefault(name, fallback);
    }

    /**
     * Whether a Celer peer busy-polls its channels: {@code --transport=poll}.
     *
     * @param child the child's arguments.
     * @return true for {@code poll}, false for {@code select} or none.
     */
    public static boolean busyPoll(final ChildProcess child)
    {
        final String transport = child.arg("transport", "select");
        if (!transport.equals("poll") && !transport.equals("select"))
        {
            throw new IllegalArgumentException("unknown Celer transport '" + transport + "': poll or select");
        }
        return transport.equals("poll");
    }

    /**
     * A message to send: a direct buffer of {@code x}, ready to write.
     *
     * @param size its bytes.
     * @return the buffer, position 0, limit {@code size}.
     */
    public static ByteBuffer payload(final int size)
    {
        final ByteBuffer payload = ByteBuffer.allocateDirect(size);
        while (payload.hasRemaining())
        {
            payload.put((byte)'x');
        }
        return payload.flip();
    }

    /**
     * A path argument.
     *
     * @param name its name.
     * @return the path, or null when absent.
     */
    public Path pathArg(final String name)
    {
        final String value = args.get(name);
        return value == null ? null : Path.of(value);
    }

    /**
     * Tells the harness the port; it starts the client only after this line.
     *
     * @param port the bound port.
     */
    public static void listening(final int port)
    {
        System.out.println("listening on port " + port);
        System.out.flush();
    }

    /**
     * The line a client prints as its warm-up ends; the harness then marks the server's measure
     * ({@code begin} on its stdin), so that the server's figures, its allocation above all, leave out the
     * connecting and the warm-up as the client's do.
     */
    public static final String MEASURING = "measuring";

    /**
     * The line a client prints as its measure ends, its connections still open; the harness then takes the
     * server's figures ({@code stats}) and writes a line to the client's stdin, after which it may close them: a
     * server's work on the closes is not the measured load's.
     */
    public static final String MEASURED = "measured";

    /** Counted down by the harness's line after {@link #MEASURED}. */
    private static final CountDownLatch GO_ON = new CountDownLatch(1);

    /**
     * Tells the harness the measure begins now.
     */
    public static void measuring()
    {
        report(MEASURING);
    }

    /**
     * Tells the harness the measure ended, and waits for it to have taken the server's figures.
     *
     * @param timeout how long to wait at most; a harness that never answers is not waited for longer.
     * @return true when the harness answered in time; false on a timeout or an interrupt, whose flag stays set.
     */
    public static boolean measured(final Duration timeout)
    {
        report(MEASURED);
        try
        {
            return GO_ON.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Prints a line for the harness and flushes.
     *
     * @param line the line.
     */
    public static void report(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Waits for the peer's work to finish, bounded by {@code --max-seconds}; exits the JVM with status 3 on
     * timeout, since the I/O threads may be busy-spinning non-daemon threads.
     *
     * @param done counted down when the work is done.
     */
    public void await(final CountDownLatch done)
    {
        try
        {
            if (!done.await(intArg("max-seconds", 600), TimeUnit.SECONDS))
            {
                System.err.println("timed out after " + intArg("max-seconds", 600) + " s");
                System.exit(3);
            }
        }
        catch (final InterruptedException ex)
        {
            System.exit(3);
        }
    }

    /**
     * Reports a failure and exits with status 2.
     *
     * @param what what failed.
     * @param cause why.
     */
    public static void fail(final String what, final Throwable cause)
    {
        System.err.println(what + ": " + cause);
        cause.printStackTrace();
        System.err.flush();
        Runtime.getRuntime().halt(2);
    }

    private static void exitWhenHarnessGone()
    {
        // The harness holds our stdin open and writes a line only to let a client go on after its measure: end of
        // input means it is gone.
        final InputStream in = System.in;
        try
        {
            int b;
            while ((b = in.read()) >= 0)
            {
                if (b == '\n')
                {
                    GO_ON.countDown();
                }
            }
        }
        catch (final IOException ex)
        {
            // Treated like end of input.
        }
        Runtime.getRuntime().halt(5);
    }
}
