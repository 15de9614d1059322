package io.celer.examples.wsfeed;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.websocket.outbound.Fanout;
import io.celer.websocket.outbound.Outbox;

/**
 * The feed's producer, a reactor timer: every tick it generates, for each client, the messages its rate owes it
 * since it joined, in one batch, and hands each to the client's outbox, which writes it, queues it, or applies
 * the overflow policy. A tick makes at most a tenth of a second's messages per client, so that a reactor that fell
 * behind catches up in steps rather than in one long stall; what it owes stays owed. Allocation-free per message.
 */
final class FeedSchedule implements TimerCallback
{
    private static final double NANOS_PER_SECOND = 1e9;

    private final Reactor reactor;
    private final Fanout fanout;
    private final FeedText text;
    private final double ratePerNano;
    private final double nanosPerMessage;
    private final long maxPerTick;
    private final int tickMillis;
    private FeedClient[] clients = new FeedClient[16];
    private int count;
    private long offered;
    private boolean running;
    /** When the next tick is due, on the reactor's millisecond clock: ticks keep a fixed rate. */
    private long nextTickMillis;

    /**
     * A schedule, stopped.
     *
     * @param reactor    the server's reactor.
     * @param fanout     its clients' outboxes.
     * @param rate       messages a second per client.
     * @param size       bytes a message is padded to.
     * @param tickMillis the timer's period.
     */
    FeedSchedule(final Reactor reactor, final Fanout fanout, final int rate, final int size, final int tickMillis)
    {
        this.reactor = reactor;
        this.fanout = fanout;
        this.text = new FeedText(size);
        this.ratePerNano = rate / NANOS_PER_SECOND;
        this.nanosPerMessage = NANOS_PER_SECOND / rate;
        this.maxPerTick = Math.max(1, rate / 10);
        this.tickMillis = tickMillis;
    }

    /**
     * Starts ticking; reactor thread.
     */
    void start()
    {
        running = true;
        nextTickMillis = reactor.nowMillis() + tickMillis;
        reactor.schedule(tickMillis, this);
    }

    /**
     * Stops ticking; reactor thread.
     */
    void stop()
    {
        running = false;
    }

    /**
     * The longest message.
     *
     * @return bytes.
     */
    int maxMessageLength()
    {
        return text.maxLength();
    }

    void add(final FeedClient client, final long id)
    {
        client.outbox = fanout.client(id);
        client.since = System.nanoTime();
        if (count == clients.length)
        {
            clients = Arrays.copyOf(clients, count * 2);
        }
        client.slot = count;
        clients[count++] = client;
    }

    void remove(final FeedClient client)
    {
        final int slot = client.slot;
        if (slot < 0)
        {
            return;
        }
        final FeedClient last = clients[--count];
        clients[slot] = last;
        last.slot = slot;
        clients[count] = null;
        client.slot = -1;
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        if (!running)
        {
            return;
        }
        final long now = System.nanoTime();
        // Backwards: a client closed by a send swaps in the last one, which was already served.
        for (int i = count - 1; i >= 0; i--)
        {
            if (i < count)
            {
                sendDue(clients[i], now);
            }
        }
        // A fixed rate: a period counted from each firing would stretch every tick by the timer's lateness and
        // the tick's own work. A tick that ran late starts the schedule again from now; what the clients are owed
        // catches up.
        nextTickMillis = Math.max(nextTickMillis + tickMillis, nowMillis);
        reactor.schedule(nextTickMillis - nowMillis, this);
    }

    private void sendDue(final FeedClient client, final long now)
    {
        final long due = Math.min((long)((now - client.since) * ratePerNano), client.next + maxPerTick);
        if (client.next >= due)
        {
            return;
        }
        while (client.next < due && client.slot >= 0)
        {
            // Message n falls due once the rate owes n + 1 messages; never after now, whatever the rounding.
            final long dueNanos = Math.min(now, client.since + (long)((client.next + 1) * nanosPerMessage));
            final ByteBuffer message = text.write(client.next++, System.nanoTime(), dueNanos);
            // A refused message (the newest dropped, or the client closed for lag) is counted by the fanout.
            if (client.outbox.sendText(message))
            {
                offered++;
            }
        }
        // One flush per client per tick, right after its batch: flushing every client at the end of the cycle
        // would make each client's messages wait for the write calls of all the clients before it. A lagging
        // client is skipped (the reactor flushes it when its socket takes more).
        if (client.slot >= 0)
        {
            client.outbox.flush();
        }
    }

    /**
     * Messages sent or queued so far.
     *
     * @return the count.
     */
    long offered()
    {
        return offered;
    }

    /**
     * A client on the feed.
     *
     * @param index from 0 to {@link #clients()}, exclusive.
     * @return its outbox.
     */
    Outbox outbox(final int index)
    {
        return clients[index].outbox;
    }

    /**
     * The clients on the feed.
     *
     * @return the count.
     */
    int clients()
    {
        return count;
    }
}
