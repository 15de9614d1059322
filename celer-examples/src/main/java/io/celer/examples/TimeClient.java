package io.celer.examples;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.celer.examples.cli.ClientOutcome;
import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;

/**
 * A TIME (RFC 868) client: connects, prints each 4-byte time the server sends as an ISO-8601 UTC date, and is
 * done when the connection closes.
 *
 * <p>It takes any number of times per connection, so it works with {@link TimeServer} (one, then the server
 * hangs up) and with {@link TimeBeatServer} (one a period, until the client is closed). The framing cuts
 * the stream into 4-byte messages, however the bytes arrive.
 */
public final class TimeClient implements Handler
{
    /** How many of the latest times {@link #times()} keeps. */
    public static final int TIMES_KEPT = 1024;

    private final TcpClient client;
    private final ClientOutcome outcome = new ClientOutcome();
    private final PrintStream out;
    private final byte[] line = new byte[Rfc868.FORMATTED_LENGTH + 1];
    private final long[] kept = new long[TIMES_KEPT];
    private int received;

    /**
     * A client that prints to standard output.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name or address.
     * @param port    the server's port.
     */
    public TimeClient(final Reactor reactor, final String host, final int port)
    {
        this(reactor, host, port, System.out);
    }

    /**
     * A client.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name or address.
     * @param port    the server's port.
     * @param out     where the dates go, one a line.
     */
    public TimeClient(final Reactor reactor, final String host, final int port, final PrintStream out)
    {
        this(reactor, host, port, new TcpConfig(), out);
    }

    /**
     * A client over a given transport (TLS, say).
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name or address.
     * @param port    the server's port.
     * @param base    the transport and socket options; the framing is added here.
     * @param out     where it prints.
     */
    public TimeClient(final Reactor reactor, final String host, final int port, final TcpConfig base, final PrintStream out)
    {
        this.out = out;
        line[Rfc868.FORMATTED_LENGTH] = '\n';
        client = new TcpClient(
            reactor, host, port, base.copy().framing(() -> new FixedSizeFraming(Rfc868.LENGTH)), outcome.recording(this));
    }

    /**
     * Starts connecting, from any thread.
     *
     * @return this.
     */
    public TimeClient open()
    {
        client.open();
        return this;
    }

    /**
     * Closes the connection, from any thread; the client is then done.
     */
    public void close()
    {
        client.close();
    }

    /**
     * Times received so far; readable from any thread.
     *
     * @return the count.
     */
    public synchronized int received()
    {
        return received;
    }

    /**
     * The latest times received, oldest first, up to {@link #TIMES_KEPT}; readable from any thread.
     *
     * @return a copy.
     */
    public synchronized List<Instant> times()
    {
        final int count = Math.min(received, TIMES_KEPT);
        final List<Instant> times = new ArrayList<>(count);
        for (int i = received - count; i < received; i++)
        {
            times.add(Instant.ofEpochSecond(kept[i % TIMES_KEPT]));
        }
        return times;
    }

    /**
     * Decodes one time, keeps it and prints it.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        final long unixSeconds = Rfc868.toUnixSeconds(message.getInt());
        synchronized (this)
        {
            kept[received % TIMES_KEPT] = unixSeconds;
            received++;
        }
        // Formatted into a reused array: a Date and its String per message would be garbage.
        Rfc868.formatUtc(unixSeconds, line);
        out.write(line, 0, line.length);
        out.flush();
    }

    /**
     * How the connection ended, and a callback for when it does.
     *
     * @return the outcome, readable from any thread.
     */
    public ClientOutcome outcome()
    {
        return outcome;
    }
}
