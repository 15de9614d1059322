package io.celer.websocket.outbound;

import java.nio.ByteBuffer;

import io.celer.counters.Counters;
import io.celer.tcp.Connection;
import io.celer.websocket.CloseCode;
import io.celer.websocket.internal.FrameEncoder;
import io.celer.websocket.internal.Opcode;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * One client's outgoing side: sends whole messages straight into its connection's write buffer while there is
 * room, and otherwise into a bounded queue that drains, whole message by whole message, as the socket takes
 * bytes, one drain budget per reactor cycle; a full queue applies the server's {@link OverflowPolicy}. Reactor
 * thread only; the queue's storage comes from its fanout's pool, so nothing allocates once the pool holds what the
 * clients' lag needs (at most their bounds).
 *
 * <p>The queue keeps enough room at the end of the write buffer for a close frame, so that closing a client that
 * reads nothing still tells it why (1008). Messages sent here must not be interleaved with a fragmented message
 * sent directly on the {@link WebSocket}.
 */
public final class Outbox
{
    /** Room the queue leaves in the write buffer: the largest close frame, masked. */
    static final int CLOSE_FRAME_ROOM =
        FrameEncoder.headerLength(FrameEncoder.MAX_CONTROL_PAYLOAD, true) + FrameEncoder.MAX_CONTROL_PAYLOAD;
    /** The reason of the close frame sent under {@link OverflowPolicy#CLOSE}. */
    public static final String CLOSE_REASON = "outgoing queue full";

    private final Fanout fanout;
    private final WebSocketHandler application;
    private final MessageQueue queue;
    private final OverflowPolicy policy;
    private final int lagThreshold;
    private final int maxMessageLength;
    private final int drainBudget;
    private final Events events = new Events();
    private WebSocket socket;
    private long id = -1;
    private long dropped;
    private boolean lagging;
    private OutboxCounters counters;
    /** Whether the fanout holds this client for a drain turn next cycle. */
    boolean drainWaiting;
    /** Where the fanout keeps this client, for removal in constant time; -1 when not kept. */
    int slot = -1;

    Outbox(final Fanout fanout, final OutboundConfig config, final WebSocketHandler application)
    {
        this.fanout = fanout;
        this.application = application;
        this.queue = new MessageQueue(config.maxQueuedMessages(), config.maxQueuedBytes(), config.maxMessageLength(),
            fanout.segments());
        this.policy = config.overflowPolicy();
        this.lagThreshold = config.lagThreshold();
        this.maxMessageLength = config.maxMessageLength();
        this.drainBudget = config.drainBudget();
    }

    /**
     * The client's id: its connection's id, or -1 before it opened.
     *
     * @return the id.
     */
    public long id()
    {
        return id;
    }

    /**
     * The client's WebSocket, for what does not go through the queue (pings, closing).
     *
     * @return the WebSocket, or null before it opened.
     */
    public WebSocket socket()
    {
        return socket;
    }

    /**
     * Sends a binary message now if the write buffer has room and nothing is queued, else queues it.
     *
     * @param payload the bytes between position and limit; position moves to limit when sent or queued.
     * @return true when sent or queued; false when refused (the queue full under {@link OverflowPolicy#DROP_NEWEST}
     *         or {@link OverflowPolicy#CLOSE}, or the client not open).
     * @throws IllegalArgumentException if the message is larger than the largest configured, or its frame could
     *                                  never fit the write buffer.
     */
    public boolean sendBinary(final ByteBuffer payload)
    {
        return send(Opcode.BINARY, payload);
    }

    /**
     * Sends a text message already encoded as UTF-8 (not checked), as {@link #sendBinary} does.
     *
     * @param utf8 the bytes between position and limit; position moves to limit when sent or queued.
     * @return true when sent or queued; false when refused.
     * @throws IllegalArgumentException if the message is too large.
     */
    public boolean sendText(final ByteBuffer utf8)
    {
        return send(Opcode.TEXT, utf8);
    }

    /**
     * Sends or queues a message of a kind, {@link Opcode#TEXT} or {@link Opcode#BINARY}.
     */
    boolean send(final int kind, final ByteBuffer payload)
    {
        if (socket == null || !socket.isOpen())
        {
            return false;
        }
        final int length = payload.remaining();
        if (length > maxMessageLength)
        {
            throw new IllegalArgumentException("a message of " + length + " bytes is above the largest of " +
                maxMessageLength);
        }
        final Connection connection = socket.connection();
        final int room = roomFor(length);
        if (room > connection.writeBufferCapacity())
        {
            throw new IllegalArgumentException("a message of " + length + " bytes never fits the write buffer of " +
                connection.writeBufferCapacity() + " bytes with room kept for a close frame");
        }
        if (queue.isEmpty() && hasRoom(connection, room) && write(kind, payload))
        {
            return true;
        }
        return socket.isOpen() && enqueue(kind, payload);
    }

    private boolean enqueue(final int kind, final ByteBuffer payload)
    {
        final long now = Counters.enabled() ? System.nanoTime() : 0;
        if (!queue.offer(kind, payload, now))
        {
            switch (policy)
            {
                case DROP_NEWEST:
                    countDrops(1);
                    return false;
                case CLOSE:
                    closeForLag();
                    return false;
                default:
                    // The message is no larger than the byte bound, so emptying the queue makes room, unless the
                    // shared storage is all in other clients' queues: then the newest goes too.
                    do
                    {
                        if (queue.isEmpty())
                        {
                            countDrops(1);
                            return false;
                        }
                        queue.remove();
                        countDrops(1);
                    }
                    while (!queue.offer(kind, payload, now));
                    break;
            }
        }
        if (!lagging && queue.size() >= lagThreshold)
        {
            lagging = true;
            counters.lagging.increment();
            fanout.lagStarted(this);
        }
        return true;
    }

    private void closeForLag()
    {
        countDrops(queue.size() + 1L);
        queue.clear();
        endLag();
        // The close frame fits: the queue never writes into the room kept for it.
        socket.close(CloseCode.POLICY_VIOLATION, CLOSE_REASON);
    }

    /**
     * Moves queued messages into the write buffer while they fit whole, up to the drain budget: a backlog of
     * thousands of messages moved in one go would hold the reactor while every other client's messages wait. Stops
     * when the socket is behind, to be called again by its write-space event, or when the budget is spent, to be
     * called again by the fanout next cycle, after the other clients waiting for their turn.
     */
    private void drain()
    {
        final Connection connection = socket.connection();
        int budget = drainBudget;
        // One clock read per turn: the messages it moves enter the write buffer together, flushed at once.
        final long now = Counters.enabled() ? System.nanoTime() : 0;
        while (!queue.isEmpty())
        {
            if (!socket.isOpen())
            {
                queue.clear();
                break;
            }
            if (budget <= 0)
            {
                // The turn's bytes leave now, in one write; a socket that refuses some calls back when it takes more.
                flush();
                if (socket.isOpen() && !connection.isLagging())
                {
                    fanout.drainLater(this);
                }
                return;
            }
            final int length = queue.peekLength();
            if (!hasRoom(connection, roomFor(length)) || !write(queue.peekKind(), queue.peek()))
            {
                break;
            }
            counters.queueTime.record(now - queue.peekQueuedNanos());
            queue.remove();
            budget -= length;
        }
        if (queue.isEmpty())
        {
            endLag();
        }
    }

    /**
     * The fanout gives this client its turn: its backlog moves on by one budget.
     */
    void drainTurn()
    {
        drainWaiting = false;
        if (socket != null && socket.isOpen() && !queue.isEmpty())
        {
            drainAndTell();
        }
    }

    private void drainAndTell()
    {
        drain();
        if (queue.isEmpty() && socket.isOpen())
        {
            application.writable(socket, socket.connection().writeBufferRemaining());
        }
    }

    /**
     * Whether a frame needing that room fits now, flushing first if it does not: after a flush that leaves it
     * still not fitting the connection is lagging, and its write space freed event calls {@link #drain()} back.
     */
    private static boolean hasRoom(final Connection connection, final int room)
    {
        if (connection.writeBufferRemaining() >= room)
        {
            return true;
        }
        if (connection.isLagging())
        {
            // The socket refused bytes at the last flush and the reactor waits for it to take more: flushing again
            // now would cost a system call and a compaction of the whole buffer for nothing.
            return false;
        }
        connection.flush();
        return connection.writeBufferRemaining() >= room;
    }

    /**
     * Flushes what was written to the client, unless its socket is behind: then the reactor flushes it as soon
     * as the socket takes more, and a flush now would only repeat a system call that the socket refuses. A
     * producer writing a batch to many clients calls this once per client after its batch.
     */
    public void flush()
    {
        if (socket != null && socket.isOpen() && !socket.connection().isLagging())
        {
            socket.flush();
        }
    }

    private boolean write(final int kind, final ByteBuffer payload)
    {
        final boolean written = kind == Opcode.TEXT ? socket.sendText(payload) : socket.sendBinary(payload);
        if (written)
        {
            counters.written.increment();
        }
        return written;
    }

    private int roomFor(final int length)
    {
        return FrameEncoder.headerLength(length, !socket.isServer()) + length + CLOSE_FRAME_ROOM;
    }

    private void countDrops(final long messages)
    {
        dropped += messages;
        counters.dropped(policy, messages);
        fanout.countDrops(messages);
    }

    private void endLag()
    {
        if (lagging)
        {
            lagging = false;
            counters.lagging.decrement();
            fanout.lagEnded(this);
        }
    }

    /**
     * Whether the client is lagging: its queue reached the lag threshold and has not been empty since.
     *
     * @return true while lagging.
     */
    public boolean isLagging()
    {
        return lagging;
    }

    /**
     * Messages this client lost to its overflow policy: dropped from the queue, refused, or discarded on closing.
     *
     * @return the count.
     */
    public long dropped()
    {
        return dropped;
    }

    /**
     * Messages waiting in the queue.
     *
     * @return the count.
     */
    public int queuedMessages()
    {
        return queue.size();
    }

    /**
     * Payload bytes waiting in the queue.
     *
     * @return bytes.
     */
    public int queuedBytes()
    {
        return queue.bytes();
    }

    /**
     * Bytes of queue storage this client holds: 0 while its queue is empty, never more than its bounds allow.
     *
     * @return bytes.
     */
    public int queueStorage()
    {
        return queue.storageCapacity();
    }

    /**
     * The most queue storage this client's bounds let it hold.
     */
    long queueStorageBound()
    {
        return queue.storageBound();
    }

    /**
     * The handler to give the client's session: it runs the queue and passes every event on to the application's.
     */
    WebSocketHandler events()
    {
        return events;
    }

    @Override
    public String toString()
    {
        return "Outbox{id=" + id + ", " + queue + ", dropped=" + dropped + (lagging ? ", lagging}" : "}");
    }

    /**
     * The session's events: opening and closing register the client, write space drains the queue; everything
     * reaches the application's handler too.
     */
    private final class Events implements WebSocketHandler
    {
        @Override
        public void opened(final WebSocket webSocket)
        {
            socket = webSocket;
            id = webSocket.connection().id();
            counters = OutboxCounters.of(webSocket.connection().reactor().counters());
            fanout.add(Outbox.this);
            application.opened(webSocket);
        }

        @Override
        public void text(final WebSocket webSocket, final Utf8Text message)
        {
            application.text(webSocket, message);
        }

        @Override
        public void binary(final WebSocket webSocket, final ByteBuffer message)
        {
            application.binary(webSocket, message);
        }

        @Override
        public void fragment(final WebSocket webSocket, final ByteBuffer chunk, final boolean text, final boolean last)
        {
            application.fragment(webSocket, chunk, text, last);
        }

        @Override
        public void ping(final WebSocket webSocket, final ByteBuffer payload)
        {
            application.ping(webSocket, payload);
        }

        @Override
        public void pong(final WebSocket webSocket, final ByteBuffer payload)
        {
            application.pong(webSocket, payload);
        }

        @Override
        public void closing(final WebSocket webSocket, final int code, final Utf8Text reason)
        {
            application.closing(webSocket, code, reason);
        }

        @Override
        public void writable(final WebSocket webSocket, final int freeBytes)
        {
            // A client waiting for its drain turn gets it next cycle; draining now too would spend two budgets.
            if (!drainWaiting)
            {
                drainAndTell();
            }
        }

        @Override
        public void closed(final WebSocket webSocket, final int code)
        {
            queue.clear();
            endLag();
            fanout.remove(Outbox.this);
            application.closed(webSocket, code);
        }
    }
}
