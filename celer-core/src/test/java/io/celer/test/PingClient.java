package io.celer.test;

import java.nio.ByteBuffer;
import java.time.Duration;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * Sends numbered fixed-size messages one at a time, the next when the echo of the last one arrives; checks
 * each echo and allocates nothing per round trip.
 */
public final class PingClient implements Handler
{
    private final int size;
    private final ByteBuffer message;
    private volatile long roundTrips;
    private volatile String failure;
    private long seq;

    /**
     * A client for an echo server of fixed-size messages.
     *
     * @param size bytes per message, at least 16 (a sequence number and a time stamp).
     */
    public PingClient(final int size)
    {
        this.size = size;
        message = ByteBuffer.allocateDirect(size);
    }

    /**
     * Round trips completed; readable from any thread.
     *
     * @return the count.
     */
    public long roundTrips()
    {
        return roundTrips;
    }

    /**
     * What went wrong: a wrong echo, a refused send.
     *
     * @return the failure, or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * Waits until more round trips have completed, each echo checked.
     *
     * @param count   how many more.
     * @param timeout the bound, wide enough for a loaded machine.
     * @throws AssertionError if an echo or a send failed, or the round trips did not complete in time.
     */
    public void awaitMore(final long count, final Duration timeout)
    {
        final long target = roundTrips + count;
        Await.until(() -> "round trip " + target + ", at " + roundTrips + ", failure " + failure,
            () -> roundTrips >= target || failure != null, timeout);
        if (failure != null)
        {
            throw new AssertionError(failure);
        }
    }

    /**
     * Sends the first message.
     */
    @Override
    public void opened(final Connection connection)
    {
        send(connection);
    }

    /**
     * Checks the echo and sends the next message.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer echo)
    {
        if (echo.getLong(echo.position()) != seq || echo.remaining() != size)
        {
            failure = "unexpected echo after " + seq + " round trips";
            connection.close();
            return;
        }
        roundTrips = ++seq;
        send(connection);
    }

    private void send(final Connection connection)
    {
        message.clear();
        message.putLong(0, seq);
        message.putLong(8, System.nanoTime());
        if (!connection.send(message))
        {
            failure = "send refused after " + seq + " round trips";
        }
    }
}
