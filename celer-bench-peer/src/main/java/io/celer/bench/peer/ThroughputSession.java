package io.celer.bench.peer;

import java.util.Arrays;

/**
 * The client's side of the throughput benchmark, whatever the library: the message it sends, how many, its
 * progress, and the timing the harness reads once the last message is with the kernel.
 */
public final class ThroughputSession
{
    private final IoThreadProbe probe = new IoThreadProbe("client");
    private final byte[] payload;
    private final long total;
    private final ProgressFile progress;
    private long startNanos;
    private volatile String stats;

    /**
     * A session.
     *
     * @param child the client's process: {@code --messages=N --size=B --progress=FILE}.
     */
    public ThroughputSession(final ChildProcess child)
    {
        this.payload = new byte[child.intArg("size", 256)];
        Arrays.fill(payload, (byte)'x');
        this.total = child.intArg("messages", 1);
        this.progress = ProgressFile.open(child.pathArg("progress"));
    }

    /**
     * The message every write sends; the same array each time.
     *
     * @return its bytes.
     */
    public byte[] payload()
    {
        return payload;
    }

    /**
     * How many messages to send.
     *
     * @return the count.
     */
    public long total()
    {
        return total;
    }

    /**
     * Shows the harness how far the sender got; call every {@link ProgressFile#EVERY} messages.
     *
     * @param sent messages sent so far.
     */
    public void progress(final long sent)
    {
        progress.set(sent);
    }

    /**
     * Starts the clock; call on the I/O thread once the connection is open.
     */
    public void start()
    {
        probe.begin();
        startNanos = System.nanoTime();
    }

    /**
     * Stops the clock; call on the I/O thread once the last message is with the kernel.
     *
     * @param sent messages sent.
     */
    public void finish(final long sent)
    {
        final long nanos = System.nanoTime() - startNanos;
        probe.end(sent);
        progress.set(sent);
        stats = probe.statsLine(nanos);
    }

    /**
     * Reports the timing to the harness, or fails the process when the connection closed before the end.
     *
     * @param client the client, for the failure: such as {@code celer batch client}.
     */
    public void report(final String client)
    {
        final String line = stats;
        if (line == null)
        {
            ChildProcess.fail(client, new IllegalStateException("closed before sending everything"));
        }
        ChildProcess.report(line);
    }
}
