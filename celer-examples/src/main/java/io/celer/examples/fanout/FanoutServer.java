package io.celer.examples.fanout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * An asynchronous front server: forwards each client line to one of several back-ends and sends the
 * back-end's answer line back, all on one reactor thread, without blocking and without worker threads.
 *
 * <p><b>Back-ends.</b> One pipelined TCP connection per back-end ({@link BackendServer} speaks the protocol:
 * one answer line per request line, in order), which reconnects by itself with back-off. A request goes to
 * the connected back-end with the fewest requests pending, ties taken in turn.
 *
 * <p><b>Order.</b> Answers to one client go back in the order of its requests, whichever back-ends answered
 * them: an answer that arrives early is held until the earlier ones are out.
 *
 * <p><b>Failover.</b> When a back-end's connection closes, the requests it had not answered are sent again
 * to the others, so each request is answered exactly once; a back-end that comes back takes load again.
 *
 * <p><b>Bounds.</b> At most {@code maxPending} requests are in flight (held in pre-allocated slots); a request
 * beyond that is answered {@code error: overloaded}. When no back-end can take a request (none is
 * connected, or all their write buffers are full) it waits, up to {@code maxWaiting} requests, and goes out
 * as soon as one can; beyond that it is answered {@code error: no back-end available}. Error answers keep
 * their place in the client's order too.
 *
 * <p>After warm-up, forwarding, answering and reordering allocate nothing; a client connecting allocates its
 * small state once.
 */
public final class FanoutServer implements Handler
{
    /** The longest request line accepted; a longer one closes the client's connection. */
    public static final int MAX_LINE_LENGTH = 1024;
    /** Requests in flight, over all clients, by default. */
    public static final int DEFAULT_MAX_PENDING = 4096;
    /** Requests waiting for a back-end, by default. */
    public static final int DEFAULT_MAX_WAITING = 1024;
    /** First delay before reconnecting to a back-end, by default. */
    public static final long DEFAULT_RECONNECT_DELAY_MILLIS = 100;
    /** The most back-ends. */
    public static final int MAX_BACKENDS = 64;

    // Room for what a back-end puts before the line: BackendServer's port and colon, or more.
    static final int MAX_ANSWER_LENGTH = MAX_LINE_LENGTH + 64;

    private static final byte[] OVERLOADED = "error: overloaded".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNAVAILABLE = "error: no back-end available".getBytes(StandardCharsets.US_ASCII);

    private final Reactor reactor;
    private final TcpServer server;
    private final RequestSlots slots;
    private final IntFifo waiting;
    private final BackendLink[] links;
    private int turn;
    private volatile long resent;
    private volatile long overloaded;
    private volatile long unavailable;

    /**
     * A front server with the default bounds.
     *
     * @param reactor     the reactor that runs it and its back-end connections.
     * @param port        the port, 0 for an ephemeral one.
     * @param base     where to listen, the transport (TLS) and socket options; the framing is added here.
     * @param backends    the back-ends' addresses (resolved or not).
     */
    public FanoutServer(
        final Reactor reactor, final int port, final TcpConfig base, final List<InetSocketAddress> backends)
    {
        this(reactor, port, base, backends, DEFAULT_MAX_PENDING, DEFAULT_MAX_WAITING,
            DEFAULT_RECONNECT_DELAY_MILLIS);
    }

    /**
     * A front server.
     *
     * @param reactor              the reactor that runs it and its back-end connections.
     * @param port                 the port, 0 for an ephemeral one.
     * @param base              where to listen, the transport (TLS) and socket options; the framing is added here.
     * @param backends             the back-ends' addresses (resolved or not), 1 to {@link #MAX_BACKENDS}.
     * @param maxPending           requests in flight before {@code error: overloaded}.
     * @param maxWaiting           requests waiting for a back-end before {@code error: no back-end available}.
     * @param reconnectDelayMillis first delay before reconnecting to a back-end, doubled on each failure up to
     *                             a second (or this delay, if longer).
     */
    public FanoutServer(
        final Reactor reactor,
        final int port,
        final TcpConfig base,
        final List<InetSocketAddress> backends,
        final int maxPending,
        final int maxWaiting,
        final long reconnectDelayMillis)
    {
        if (backends.isEmpty() || backends.size() > MAX_BACKENDS)
        {
            throw new IllegalArgumentException("between 1 and " + MAX_BACKENDS + " back-ends: " + backends.size());
        }
        if (maxPending < 1 || maxWaiting < 1 || reconnectDelayMillis < 1)
        {
            throw new IllegalArgumentException("maxPending, maxWaiting and reconnectDelayMillis must be positive");
        }
        this.reactor = reactor;
        slots = new RequestSlots(maxPending, MAX_ANSWER_LENGTH);
        waiting = new IntFifo(maxWaiting);
        links = new BackendLink[backends.size()];
        for (int i = 0; i < links.length; i++)
        {
            final InetSocketAddress address = backends.get(i);
            links[i] = new BackendLink(
                this, reactor, slots, address.getHostString(), address.getPort(), reconnectDelayMillis, maxPending);
        }
        final TcpConfig config = base.copy()
            .framing(() -> new LineFraming(MAX_LINE_LENGTH));
        server = new TcpServer(reactor, port, config, this);
    }

    /**
     * Connects to the back-ends and starts listening, from any thread.
     *
     * @return this.
     */
    public FanoutServer open()
    {
        for (final BackendLink link : links)
        {
            link.open();
        }
        server.open();
        return this;
    }

    /**
     * Stops listening, closes every client and back-end connection, from any thread.
     */
    public void close()
    {
        server.close();
        for (final BackendLink link : links)
        {
            link.close();
        }
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
     * How many back-ends it knows.
     *
     * @return the count.
     */
    public int backends()
    {
        return links.length;
    }

    /**
     * Whether a back-end is connected; readable from any thread.
     *
     * @param index in the order given.
     * @return true while connected.
     */
    public boolean isBackendUp(final int index)
    {
        return links[index].isConnected();
    }

    /**
     * Answers a back-end gave so far; readable from any thread.
     *
     * @param index in the order given.
     * @return the count.
     */
    public long answeredBy(final int index)
    {
        return links[index].answered();
    }

    /**
     * Requests sent again after their back-end's connection closed.
     *
     * @return the count.
     */
    public long resent()
    {
        return resent;
    }

    /**
     * Requests answered {@code error: overloaded}.
     *
     * @return the count.
     */
    public long overloaded()
    {
        return overloaded;
    }

    /**
     * Requests answered {@code error: no back-end available}.
     *
     * @return the count.
     */
    public long unavailable()
    {
        return unavailable;
    }

    /**
     * Gives the new client its state, allocated once per connection.
     */
    @Override
    public void opened(final Connection connection)
    {
        connection.attach(new FrontClient(connection));
    }

    /**
     * Forgets the client: answers to its requests still out will be dropped when they come.
     */
    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        final FrontClient client = connection.attachment();
        if (client == null)
        {
            return;
        }
        client.closed = true;
        int slot = client.head;
        while (slot != RequestSlots.NONE)
        {
            final int next = slots.next[slot];
            if (slots.answered[slot])
            {
                slots.release(slot);
            }
            else
            {
                // Still queued at a back-end or waiting: released when it comes out of that queue.
                slots.client[slot] = null;
            }
            slot = next;
        }
        client.head = client.tail = RequestSlots.NONE;
    }

    /**
     * Forwards the line, or queues it when no back-end can take it now.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer line)
    {
        final FrontClient client = connection.attachment();
        final int slot = slots.take(client, line);
        if (slot == RequestSlots.NONE)
        {
            refuse(client);
            return;
        }
        // Requests already waiting go first, so the oldest go out first when a back-end frees up.
        if (!waiting.isEmpty() || !forward(slot))
        {
            await(slot);
        }
    }

    private void refuse(final FrontClient client)
    {
        overloaded++;
        if (client.tail == RequestSlots.NONE)
        {
            write(client, OVERLOADED, OVERLOADED.length);
        }
        else
        {
            // No slot to hold the error in its place: it rides on the client's latest request.
            slots.refusedAfter[client.tail]++;
        }
    }

    /**
     * Sends to the connected back-end with the fewest pending requests; false when none could take it.
     */
    private boolean forward(final int slot)
    {
        final int count = links.length;
        final int first = turn;
        turn = first + 1 == count ? 0 : first + 1;
        long tried = 0;
        while (true)
        {
            int best = -1;
            for (int i = 0; i < count; i++)
            {
                final int index = first + i < count ? first + i : first + i - count;
                final BackendLink link = links[index];
                if ((tried & (1L << index)) == 0 && link.isUp() &&
                    (best < 0 || link.pending() < links[best].pending()))
                {
                    best = index;
                }
            }
            if (best < 0)
            {
                return false;
            }
            if (links[best].send(slot))
            {
                return true;
            }
            tried |= 1L << best;
        }
    }

    private void await(final int slot)
    {
        if (!waiting.offer(slot))
        {
            unavailable++;
            slots.answer(slot, UNAVAILABLE);
            sendAnswers(slots.client[slot]);
        }
    }

    /**
     * Forwards waiting requests while a back-end takes them; when one connects or drains its buffer.
     */
    void sendWaiting()
    {
        int slot;
        while ((slot = waiting.peek()) != RequestSlots.NONE)
        {
            if (slots.client[slot] == null)
            {
                slots.release(slot);
            }
            else if (!forward(slot))
            {
                return;
            }
            waiting.poll();
        }
    }

    /**
     * A request whose back-end went away before answering: to another one, or to wait.
     */
    void resend(final int slot)
    {
        if (slots.client[slot] == null)
        {
            slots.release(slot);
            return;
        }
        if (!reactor.isRunning())
        {
            // Everything closes: nobody is left to answer.
            return;
        }
        resent++;
        if (!waiting.isEmpty() || !forward(slot))
        {
            await(slot);
        }
    }

    /**
     * A back-end answered: keeps the answer and sends what the client can now have in order.
     */
    void answer(final int slot, final ByteBuffer answer)
    {
        final FrontClient client = slots.client[slot];
        if (client == null)
        {
            slots.release(slot);
            return;
        }
        slots.answer(slot, answer);
        sendAnswers(client);
    }

    private void sendAnswers(final FrontClient client)
    {
        int slot;
        while ((slot = client.head) != RequestSlots.NONE && slots.answered[slot])
        {
            // A write may close the client (a full write buffer): closed() then releases its slots.
            write(client, slots.bytes[slot], slots.length[slot]);
            for (int i = slots.refusedAfter[slot]; i > 0 && !client.closed; i--)
            {
                write(client, OVERLOADED, OVERLOADED.length);
            }
            if (client.closed)
            {
                return;
            }
            client.head = slots.next[slot];
            slots.release(slot);
        }
        if (client.head == RequestSlots.NONE)
        {
            client.tail = RequestSlots.NONE;
        }
    }

    private static void write(final FrontClient client, final byte[] bytes, final int length)
    {
        // Buffered: everything answered in this reactor cycle leaves in one flush at its end.
        client.connection.write(bytes, 0, length);
    }
}
