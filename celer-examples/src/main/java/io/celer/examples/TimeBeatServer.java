package io.celer.examples;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * Sends each client the RFC 868 time when it connects and then once a period, every second by default,
 * until it leaves.
 *
 * <p>The beat is the connection's event timeout, re-armed each time it fires: a timer on the reactor thread,
 * so no other thread and no lock is involved. Clients are not supposed to send anything; what they send is
 * dropped, as the handler's default {@code message} does.
 */
public final class TimeBeatServer implements Handler
{
    /** The default period between beats. */
    public static final long DEFAULT_PERIOD_MILLIS = 1_000;

    private final long periodMillis;
    // Reused for every client: they all run on the one reactor thread.
    private final ByteBuffer time = ByteBuffer.allocate(Rfc868.LENGTH);

    /**
     * A handler that beats every second.
     */
    public TimeBeatServer()
    {
        this(DEFAULT_PERIOD_MILLIS);
    }

    /**
     * A handler that beats at another period.
     *
     * @param periodMillis milliseconds between beats, at least 1.
     */
    public TimeBeatServer(final long periodMillis)
    {
        if (periodMillis < 1)
        {
            throw new IllegalArgumentException("the period must be at least 1 ms: " + periodMillis);
        }
        this.periodMillis = periodMillis;
    }

    /**
     * Sends the first beat at once.
     */
    @Override
    public void opened(final Connection connection)
    {
        beat(connection);
    }

    /**
     * Sends the next beat.
     */
    @Override
    public void eventTimeout(final Connection connection, final long nowMillis)
    {
        beat(connection);
    }

    private void beat(final Connection connection)
    {
        time.clear();
        Rfc868.putNow(time);
        time.flip();
        connection.send(time);
        // The timer dies with the connection, so a client that left stops the beat by itself.
        connection.setEventTimeout(periodMillis);
    }
}
