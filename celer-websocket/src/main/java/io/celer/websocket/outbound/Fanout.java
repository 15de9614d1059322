package io.celer.websocket.outbound;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.collections.Long2ObjectHashMap;

import io.celer.reactor.internal.CycleTask;
import io.celer.reactor.Reactor;
import io.celer.websocket.internal.Opcode;
import io.celer.websocket.WebSocketHandler;

/**
 * The clients of one reactor with back-pressured sending: each has an {@link Outbox} (a bounded queue behind its
 * write buffer), found by its connection id, and a message can go to one client or to all. Everything runs on the
 * reactor thread without locks; other threads publish through a {@link Publisher}. Sending allocates nothing; the
 * clients' queues take storage segments from one pool while they lag and give them back once drained, so the pool
 * grows to what the most clients lagging at once need, within {@link OutboundConfig#maxTotalQueueStorage()}.
 *
 * <p>Wire it by giving each server session {@link #handler(WebSocketHandler)}'s handler, on a server whose
 * connections refuse a write that does not fit instead of closing
 * ({@code TcpConfig.disconnectOnFullWriteBuffer(false)}): the default closes a client as soon as its write buffer
 * fills, which is what the queue is there to avoid.
 */
public final class Fanout
{
    private final OutboundConfig config;
    private final LagListener listener;
    private final SegmentPool segments;
    private final Long2ObjectHashMap<Outbox> byId = new Long2ObjectHashMap<>();
    private Outbox[] clients = new Outbox[16];
    private int count;
    private long dropped;
    /** Clients whose backlog continues in the next drain turn; an array the turn swaps with {@link #turn}. */
    private Outbox[] waiting = new Outbox[16];
    private Outbox[] turn = new Outbox[16];
    private int waitingCount;
    /** Drain turns given so far; reactor thread. */
    long turnsGiven;
    private final DrainTurn drainTurn = new DrainTurn();
    /** Written on the reactor thread only, read by producers deciding whether to slow down. */
    private volatile int laggingClients;

    /**
     * Clients with these settings and no lag listener.
     *
     * @param config the queues' settings.
     */
    public Fanout(final OutboundConfig config)
    {
        this(config, new LagListener()
        {
        });
    }

    /**
     * Clients with these settings.
     *
     * @param config   the queues' settings, read now.
     * @param listener hears clients start and stop lagging.
     */
    public Fanout(final OutboundConfig config, final LagListener listener)
    {
        this.config = copy(config.validate());
        this.listener = listener;
        this.segments = new SegmentPool(this.config.effectiveSegmentSize(), this.config.maxTotalQueueStorage());
    }

    private static OutboundConfig copy(final OutboundConfig config)
    {
        return new OutboundConfig().maxQueuedMessages(config.maxQueuedMessages())
            .maxQueuedBytes(config.maxQueuedBytes()).maxMessageLength(config.maxMessageLength())
            .lagThreshold(config.lagThreshold()).overflowPolicy(config.overflowPolicy())
            .drainBudget(config.drainBudget()).segmentSize(config.segmentSize())
            .maxTotalQueueStorage(config.maxTotalQueueStorage());
    }

    /**
     * The handler for one new client's session: it runs the client's outbox and passes every event on.
     *
     * @param application the application's handler for that client.
     * @return a handler for exactly one session.
     */
    public WebSocketHandler handler(final WebSocketHandler application)
    {
        return new Outbox(this, config, application).events();
    }

    /**
     * The settings, as read when this was made.
     *
     * @return the settings; do not change them.
     */
    public OutboundConfig config()
    {
        return config;
    }

    /**
     * An open client by id.
     *
     * @param clientId its connection's id.
     * @return the client, or null when no open client has that id.
     */
    public Outbox client(final long clientId)
    {
        return byId.get(clientId);
    }

    /**
     * The open clients.
     *
     * @return the count.
     */
    public int clientCount()
    {
        return count;
    }

    /**
     * Sends a binary message to one client (see {@link Outbox#sendBinary}).
     *
     * @param clientId its id.
     * @param payload  the bytes between position and limit.
     * @return false when refused, or no open client has that id.
     */
    public boolean sendBinary(final long clientId, final ByteBuffer payload)
    {
        return send(clientId, Opcode.BINARY, payload);
    }

    /**
     * Sends a text message, already UTF-8, to one client (see {@link Outbox#sendText}).
     *
     * @param clientId its id.
     * @param utf8     the bytes between position and limit.
     * @return false when refused, or no open client has that id.
     */
    public boolean sendText(final long clientId, final ByteBuffer utf8)
    {
        return send(clientId, Opcode.TEXT, utf8);
    }

    /**
     * Sends a binary message to every open client.
     *
     * @param payload the bytes between position and limit; position moves to limit.
     * @return how many clients took it (sent or queued).
     */
    public int broadcastBinary(final ByteBuffer payload)
    {
        return broadcast(Opcode.BINARY, payload);
    }

    /**
     * Sends a text message, already UTF-8, to every open client.
     *
     * @param utf8 the bytes between position and limit; position moves to limit.
     * @return how many clients took it (sent or queued).
     */
    public int broadcastText(final ByteBuffer utf8)
    {
        return broadcast(Opcode.TEXT, utf8);
    }

    boolean send(final long clientId, final int kind, final ByteBuffer payload)
    {
        final Outbox client = byId.get(clientId);
        return client != null && client.send(kind, payload);
    }

    int broadcast(final int kind, final ByteBuffer payload)
    {
        final int start = payload.position();
        int taken = 0;
        // Backwards: a client that closes while being sent to swaps in the last one, which was already served.
        for (int i = count - 1; i >= 0; i--)
        {
            payload.position(start);
            if (clients[i].send(kind, payload))
            {
                taken++;
            }
        }
        payload.position(payload.limit());
        return taken;
    }

    /**
     * Bytes of queue storage allocated so far for all clients, in use or free for the next to lag: it grows to
     * what the most clients lagging at once need (at most {@link OutboundConfig#maxTotalQueueStorage()}), and stays.
     *
     * @return bytes.
     */
    public long queueStorage()
    {
        return segments.allocatedBytes();
    }

    /**
     * Bytes of queue storage free for the next client to lag.
     *
     * @return bytes.
     */
    public long freeQueueStorage()
    {
        return segments.freeBytes();
    }

    SegmentPool segments()
    {
        return segments;
    }

    /**
     * Messages all clients lost to the overflow policy, closed clients included.
     *
     * @return the count.
     */
    public long dropped()
    {
        return dropped;
    }

    /**
     * Any thread: how many clients are lagging now; producers may slow down while it is above zero.
     *
     * @return the count.
     */
    public int laggingClients()
    {
        return laggingClients;
    }

    void add(final Outbox client)
    {
        if (count == clients.length)
        {
            clients = Arrays.copyOf(clients, count * 2);
        }
        client.slot = count;
        clients[count++] = client;
        byId.put(client.id(), client);
    }

    void remove(final Outbox client)
    {
        final int slot = client.slot;
        if (slot < 0)
        {
            return;
        }
        final Outbox last = clients[--count];
        clients[slot] = last;
        last.slot = slot;
        clients[count] = null;
        client.slot = -1;
        byId.remove(client.id());
    }

    /**
     * Gives a client a drain turn in the next cycle, after those already waiting: clients with a backlog take
     * turns, one budget each per cycle.
     */
    void drainLater(final Outbox client)
    {
        if (client.drainWaiting)
        {
            return;
        }
        client.drainWaiting = true;
        if (waitingCount == waiting.length)
        {
            // Grows to the most clients with a backlog at once, then stays.
            waiting = Arrays.copyOf(waiting, waitingCount * 2);
        }
        waiting[waitingCount++] = client;
        if (waitingCount == 1 && !drainTurn.scheduled)
        {
            drainTurn.schedule(client.socket().connection().reactor());
        }
    }

    /**
     * One turn for each client that was waiting when it began; those that still have a backlog wait for the next.
     */
    private void drainTurns()
    {
        final Outbox[] clients = waiting;
        final int n = waitingCount;
        waiting = turn.length >= clients.length ? turn : new Outbox[clients.length];
        turn = clients;
        waitingCount = 0;
        turnsGiven += n;
        int i = 0;
        try
        {
            for (; i < n; i++)
            {
                final Outbox client = clients[i];
                clients[i] = null;
                client.drainTurn();
            }
        }
        finally
        {
            // An application handler that threw leaves the rest of this turn's clients waiting for the next one,
            // rather than marked as waiting in no list, never to drain again.
            for (int j = i + 1; j < n; j++)
            {
                final Outbox client = clients[j];
                clients[j] = null;
                client.drainWaiting = false;
                drainLater(client);
            }
        }
    }

    void countDrops(final long messages)
    {
        dropped += messages;
    }

    void lagStarted(final Outbox client)
    {
        laggingClients = laggingClients + 1;
        listener.lagStarted(client);
    }

    void lagEnded(final Outbox client)
    {
        laggingClients = laggingClients - 1;
        listener.lagEnded(client);
    }

    /**
     * The next cycle's drain turn: a callback through the reactor's queue, which runs what was queued before the
     * current drain began, so a turn queued during a turn runs a cycle later.
     */
    private final class DrainTurn implements Runnable, CycleTask
    {
        boolean scheduled;

        void schedule(final Reactor reactor)
        {
            scheduled = true;
            if (!reactor.callAsync(this))
            {
                // The callback queue is full: the end of this cycle serves too, only sooner.
                reactor.internals().runAtEndOfCycle(this);
            }
        }

        @Override
        public void run()
        {
            // A client whose turn leaves a backlog waits again, and schedules the next turn as the first to wait.
            scheduled = false;
            drainTurns();
        }

        @Override
        public void endOfCycle()
        {
            run();
        }
    }

    @Override
    public String toString()
    {
        return "Fanout{" + count + " clients, " + laggingClients + " lagging, " + dropped + " dropped}";
    }
}
