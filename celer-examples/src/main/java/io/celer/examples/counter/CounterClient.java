package io.celer.examples.counter;

import java.io.PrintStream;
import java.nio.ByteBuffer;

import io.celer.examples.cli.ClientOutcome;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;

/**
 * A line client that keeps a counter: a line starting with {@code +} from the server adds one, {@code -}
 * takes one away. The counter belongs to the reactor thread, like everything of a client.
 *
 * <p>Other threads change it by handing the change to the reactor, never by calling {@link #increment()} or
 * {@link #decrement()} themselves: with {@link Reactor#call(Runnable)} (they wait; one reused
 * {@link CounterCallback} makes no garbage), {@link Reactor#callAsync(Runnable)} (they do not wait; a new
 * callback each time is garbage), or a {@link io.celer.reactor.CallbackQueue} of pre-allocated callbacks
 * (they do not wait, and there is no garbage). With {@code ReactorConfig.checkThreads(true)} a direct call
 * from another thread fails loudly.
 */
public final class CounterClient implements Handler
{
    /** The longest line accepted from the server. */
    public static final int MAX_LINE_LENGTH = 256;

    private final Reactor reactor;
    private final TcpClient client;
    private final ClientOutcome outcome = new ClientOutcome();
    private final PrintStream out;
    private long total;
    private volatile long lastTotal;
    private volatile long changes;
    private volatile long linesReceived;
    private volatile long touchedOffReactor;

    /**
     * A client that prints nothing.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name or address.
     * @param port    the server's port.
     */
    public CounterClient(final Reactor reactor, final String host, final int port)
    {
        this(reactor, host, port, null);
    }

    /**
     * A client.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name or address.
     * @param port    the server's port.
     * @param out     where each change of the total is printed, or null.
     */
    public CounterClient(final Reactor reactor, final String host, final int port, final PrintStream out)
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
    public CounterClient(final Reactor reactor, final String host, final int port, final TcpConfig base, final PrintStream out)
    {
        this.reactor = reactor;
        this.out = out;
        client = new TcpClient(
            reactor, host, port, base.copy().framing(() -> new LineFraming(MAX_LINE_LENGTH)), outcome.recording(this));
    }

    /**
     * Starts connecting, from any thread.
     *
     * @return this.
     */
    public CounterClient open()
    {
        client.open();
        return this;
    }

    /**
     * Closes the connection, from any thread.
     */
    public void close()
    {
        client.close();
    }

    /**
     * Whether connected; readable from any thread.
     *
     * @return true while connected.
     */
    public boolean isOpen()
    {
        return client.isOpen();
    }

    /**
     * Adds one; on the reactor thread only.
     *
     * @throws IllegalStateException on another thread, when the reactor checks threads.
     */
    public void increment()
    {
        change(1);
    }

    /**
     * Takes one away; on the reactor thread only.
     *
     * @throws IllegalStateException on another thread, when the reactor checks threads.
     */
    public void decrement()
    {
        change(-1);
    }

    /**
     * The counter; on the reactor thread only ({@link #lastTotal()} from others).
     *
     * @return the total.
     */
    public long total()
    {
        reactor.checkThread("CounterClient.total");
        return total;
    }

    /**
     * The total after the latest change, as published for other threads.
     *
     * @return the total.
     */
    public long lastTotal()
    {
        return lastTotal;
    }

    /**
     * Changes made so far, by the server or through callbacks.
     *
     * @return the count.
     */
    public long changes()
    {
        return changes;
    }

    /**
     * Lines received from the server.
     *
     * @return the count.
     */
    public long linesReceived()
    {
        return linesReceived;
    }

    /**
     * Changes that ran on a thread other than the reactor's; stays 0 when every change is handed over.
     *
     * @return the count.
     */
    public long touchedOffReactor()
    {
        return touchedOffReactor;
    }

    private void change(final int delta)
    {
        reactor.checkThread("CounterClient.change");
        if (!reactor.isReactorThread())
        {
            // Only reached with thread checks off: count the mistake the design forbids.
            touchedOffReactor++;
        }
        total += delta;
        lastTotal = total;
        changes++;
        if (out != null)
        {
            out.println("total " + total + " (" + (delta > 0 ? "+1" : "-1") + " on " +
                Thread.currentThread().getName() + ")");
        }
    }

    /**
     * A new connection starts from zero.
     */
    @Override
    public void opened(final Connection connection)
    {
        total = 0;
        lastTotal = 0;
    }

    /**
     * Adds or takes one away for a line starting with {@code +} or {@code -}; ignores anything else.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer line)
    {
        linesReceived++;
        if (!line.hasRemaining())
        {
            return;
        }
        final byte first = line.get(line.position());
        if (first == '+')
        {
            increment();
        }
        else if (first == '-')
        {
            decrement();
        }
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
