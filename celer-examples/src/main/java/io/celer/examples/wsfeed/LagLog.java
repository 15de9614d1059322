package io.celer.examples.wsfeed;

import java.io.PrintStream;

import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.websocket.outbound.Fanout;
import io.celer.websocket.outbound.LagListener;
import io.celer.websocket.outbound.Outbox;

/**
 * Logs the clients' lag, at most one line a second whatever their number: the callbacks only count (nothing is
 * printed, or allocated, per event), and a reactor timer prints the second's starts and ends, the first client
 * that started lagging, how many lag now and the drops so far, in a second with any lag event.
 */
final class LagLog implements LagListener, TimerCallback
{
    private static final long PERIOD_MILLIS = 1000;

    private final Reactor reactor;
    private final PrintStream out;
    private final String name;
    private Fanout fanout;
    private long started;
    private long ended;
    private long firstId = -1;
    private boolean running;

    /**
     * A log.
     *
     * @param reactor the server's reactor, for the timer.
     * @param out     where the lines go.
     * @param name    the lines' prefix.
     */
    LagLog(final Reactor reactor, final PrintStream out, final String name)
    {
        this.reactor = reactor;
        this.out = out;
        this.name = name;
    }

    /**
     * Starts the once-a-second line; reactor thread.
     *
     * @param clients the fanout whose lag it hears, for its counts.
     */
    void start(final Fanout clients)
    {
        fanout = clients;
        running = true;
        reactor.schedule(PERIOD_MILLIS, this);
    }

    /**
     * Stops the line; reactor thread.
     */
    void stop()
    {
        running = false;
    }

    @Override
    public void lagStarted(final Outbox client)
    {
        if (started++ == 0)
        {
            firstId = client.id();
        }
    }

    @Override
    public void lagEnded(final Outbox client)
    {
        ended++;
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        if (!running)
        {
            return;
        }
        if (started > 0 || ended > 0)
        {
            out.println(name + ": lag: " + started + " started (first: client " + firstId + "), " + ended +
                " ended, " + fanout.laggingClients() + " lagging now, " + fanout.dropped() + " dropped so far, " +
                fanout.clientCount() + " clients");
            started = 0;
            ended = 0;
            firstId = -1;
        }
        reactor.schedule(PERIOD_MILLIS, this);
    }
}
