package io.celer.bench.peer;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The server's side of the ping-pong: follows the client's phase markers and measures between them.
 *
 * <p>A marker may come twice over UDP, when its echo was lost and the client sent it again: a second start
 * marker comes before any measured message, and a second end marker after the last, so neither changes the
 * count.
 */
public final class EchoSession
{
    /** How long a UDP server goes on echoing after the end marker, should the client send it again. */
    public static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final IoThreadProbe probe = new IoThreadProbe("server");
    private final CountDownLatch ended = new CountDownLatch(1);
    private final int dropEvery;
    private long received;
    private long counted;
    private volatile String stats;
    private volatile long lastEndNanos;

    /**
     * A session that echoes everything.
     */
    public EchoSession()
    {
        this(0);
    }

    /**
     * A session that, to test the clients' resending, leaves every n-th datagram without an echo.
     *
     * @param dropEvery n, or 0 to echo everything.
     */
    public EchoSession(final int dropEvery)
    {
        this.dropEvery = dropEvery;
    }

    /**
     * Takes one message's timestamp before it is echoed; call on the I/O thread.
     *
     * @param timestamp the first eight bytes of the message.
     * @return false when the message is to go without an echo, as if the echo were lost.
     */
    public boolean onMessage(final long timestamp)
    {
        if (timestamp == Markers.MEASURE_START)
        {
            probe.begin();
            counted = 0;
        }
        else if (timestamp == Markers.MEASURE_END)
        {
            // Set before the count-down: the lingering main thread reads it as soon as it wakes.
            lastEndNanos = System.nanoTime();
            if (stats == null)
            {
                probe.end(counted);
                stats = probe.statsLine();
                ended.countDown();
            }
        }
        else
        {
            // Counted in warm-up too, so measuring runs the very code that warmed up.
            counted++;
        }
        return dropEvery == 0 || ++received % dropEvery != 0;
    }

    /**
     * The stats line once the end marker arrived.
     *
     * @return the line, or null before.
     */
    public String stats()
    {
        return stats;
    }

    /**
     * A connectionless server's main thread: waits for the end marker (bounded by {@code --max-seconds}),
     * prints the stats line, then waits until the end marker has not come again for {@link #LINGER_NANOS}.
     *
     * @param child the server's process.
     */
    public void awaitEndAndLinger(final ChildProcess child)
    {
        child.await(ended);
        ChildProcess.report(stats);
        try
        {
            while (System.nanoTime() - lastEndNanos < LINGER_NANOS)
            {
                Thread.sleep(50);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
