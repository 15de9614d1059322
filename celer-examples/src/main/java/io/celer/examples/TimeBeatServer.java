package io.celer.examples;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

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

    private final TcpServer server;
    private final long periodMillis;
    // Reused for every client: they all run on the one reactor thread.
    private final ByteBuffer time = ByteBuffer.allocate(Rfc868.LENGTH);

    /**
     * A server on all addresses that beats every second.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     */
    public TimeBeatServer(final Reactor reactor, final int port)
    {
        this(reactor, port, new TcpConfig(), DEFAULT_PERIOD_MILLIS);
    }

    /**
     * A server on one address that beats every second.
     *
     * @param reactor     the reactor that runs it.
     * @param port        the port, 0 for an ephemeral one.
     * @param base     where to listen, the transport (TLS) and socket options; the framing is added here.
     */
    public TimeBeatServer(final Reactor reactor, final int port, final TcpConfig base)
    {
        this(reactor, port, base, DEFAULT_PERIOD_MILLIS);
    }

    /**
     * A server.
     *
     * @param reactor      the reactor that runs it.
     * @param port         the port, 0 for an ephemeral one.
     * @param base      where to listen, the transport (TLS) and socket options; the framing is added here.
     * @param periodMillis milliseconds between beats, at least 1.
     */
    public TimeBeatServer(final Reactor reactor, final int port, final TcpConfig base, final long periodMillis)
    {
        if (periodMillis < 1)
        {
            throw new IllegalArgumentException("beat period must be at least 1 ms: " + periodMillis);
        }
        this.periodMillis = periodMillis;
        server = new TcpServer(reactor, port, base.copy(), this);
    }

    /**
     * Starts listening, from any thread.
     *
     * @return this.
     */
    public TimeBeatServer open()
    {
        server.open();
        return this;
    }

    /**
     * Stops listening and closes every connection, from any thread.
     */
    public void close()
    {
        server.close();
    }

    /**
     * The address it listens on.
     *
     * @return the address, or null before open.
     */
    public InetSocketAddress localAddress()
    {
        return server.localAddress();
    }

    /**
     * The TCP server underneath, for its connections.
     *
     * @return the server.
     */
    public TcpServer server()
    {
        return server;
    }

    /**
     * The period between beats.
     *
     * @return milliseconds.
     */
    public long periodMillis()
    {
        return periodMillis;
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

    /**
     * Runs the server from the command line, as {@code ./celer demo time-beat} does.
     *
     * @param args {@code [--host H] [--port N]}.
     */
    public static void main(final String[] args)
    {
        Demo.mainFor("time-beat", args);
    }
}
