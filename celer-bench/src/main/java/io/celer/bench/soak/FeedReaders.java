package io.celer.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.celer.examples.wsfeed.FeedText;
import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;

/**
 * The soak's WebSocket clients, on one reactor: keeps a number connected to the feed, replaces the oldest at a
 * steady rate, and leaves a fraction unread (slow: they read nothing at all). A reading client checks that its
 * sequence numbers go up by one; a slow one may lose what the server drops for it.
 */
final class FeedReaders implements TimerCallback
{
    /** The WebSocket client's handshake timeout, and a second more. */
    private static final long STUCK_NANOS = 11_000_000_000L;

    private final Reactor reactor;
    private final String url;
    private final int count;
    private final long churnPeriodNanos;
    private final double slowFraction;
    private final SoakTally tally;
    private final Random random = new Random(42);
    private final List<Reader> open = new ArrayList<>();
    private long churnDebt;
    private long lastTick;
    private boolean stopped;

    FeedReaders(final Reactor reactor, final String url, final int count, final int churnPerSecond,
        final double slowFraction, final SoakTally tally)
    {
        this.reactor = reactor;
        this.url = url;
        this.count = count;
        this.churnPeriodNanos = churnPerSecond <= 0 ? Long.MAX_VALUE : 1_000_000_000L / churnPerSecond;
        this.slowFraction = slowFraction;
        this.tally = tally;
    }

    /** Connects the clients and starts the churn, on the reactor thread. */
    void start()
    {
        reactor.call(() ->
        {
            for (int i = 0; i < count; i++)
            {
                open.add(connect());
            }
            lastTick = System.nanoTime();
            reactor.schedule(10, this);
        });
    }

    private Reader connect()
    {
        final Reader reader = new Reader(random.nextDouble() < slowFraction);
        reader.client = new WebSocketClient(reactor, url, new WebSocketConfig(), reader).open();
        return reader;
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        if (stopped)
        {
            return;
        }
        final long now = System.nanoTime();
        churnDebt += now - lastTick;
        lastTick = now;
        while (churnDebt >= churnPeriodNanos && !open.isEmpty())
        {
            churnDebt -= churnPeriodNanos;
            close(open.remove(0));
            open.add(connect());
        }
        reactor.schedule(10, this);
    }

    /**
     * Closes a client. One that has not opened by now failed if it says so, or if its upgrade has taken longer
     * than the client's handshake timeout (stuck); one younger may still be opening (the first churned are the
     * first connected, under the load of all the others connecting).
     */
    private void close(final Reader reader)
    {
        reader.closing = true;
        if (!reader.client.isUpgraded() &&
            (reader.client.failure() != null || System.nanoTime() - reader.born > STUCK_NANOS))
        {
            if (tally.failed.incrementAndGet() <= 3)
            {
                System.err.println("soak: a client did not open within " + (System.nanoTime() - reader.born) /
                    1_000_000 + " ms: " + reader.client.failure());
            }
        }
        tally.closedByUs.incrementAndGet();
        reader.client.close();
    }

    /** Stops the churn and closes every client, waiting for the reactor to have done so. */
    void stop()
    {
        reactor.call(() ->
        {
            stopped = true;
            for (final Reader reader : open)
            {
                close(reader);
            }
            open.clear();
        });
    }

    /** One client: reads and checks the feed, or reads nothing. */
    private final class Reader implements WebSocketHandler
    {
        private final boolean slow;
        private long next;
        WebSocketClient client;
        boolean closing;
        final long born = System.nanoTime();

        Reader(final boolean slow)
        {
            this.slow = slow;
        }

        @Override
        public void opened(final WebSocket socket)
        {
            tally.opened.incrementAndGet();
            if (slow)
            {
                socket.connection().pauseReads();
            }
        }

        @Override
        public void text(final WebSocket socket, final Utf8Text message)
        {
            tally.messages.incrementAndGet();
            final long sequence = FeedText.sequence(message);
            if (sequence > next)
            {
                tally.fastLost.addAndGet(sequence - next);
            }
            else if (sequence < next)
            {
                tally.outOfOrder.incrementAndGet();
            }
            next = sequence + 1;
        }

        @Override
        public void closed(final WebSocket socket, final int code)
        {
            if (closing)
            {
                return;
            }
            if (slow)
            {
                tally.slowClosed.incrementAndGet(); // the server's send timeout, say: its right
            }
            else if (tally.failed.incrementAndGet() <= 3)
            {
                System.err.println("soak: a reading client closed with " + code + " after " + next + " messages");
            }
        }
    }
}
