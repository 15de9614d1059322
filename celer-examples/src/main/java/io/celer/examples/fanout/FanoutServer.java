package io.celer.examples.fanout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
 * the connected back-end with the fewest requests pending, ties taken in turn. Back-ends join
 * ({@link #addBackend}) and leave ({@link #removeBackend}) at run time, from any thread: one that leaves takes no
 * new request, answers those it holds, and is then closed.
 *
 * <p><b>Order.</b> Answers to one client go back in the order of its requests, whichever back-ends answered
 * them: an answer that arrives early is held until the earlier ones are out.
 *
 * <p><b>Failover.</b> When a back-end's connection closes, the requests it had not answered are sent again
 * to the others, so each request is answered exactly once; a back-end that comes back takes load again.
 *
 * <p><b>Back-pressure.</b> At most {@code maxPending} requests are in flight (held in pre-allocated slots).
 * When the last slot is taken, the server stops reading every client ({@link Connection#pauseReads()}), and
 * reads again once a quarter of the slots are free: no request is refused for want of room; the clients are
 * slowed down by TCP flow control instead. Requests that no back-end can take now (all their write buffers
 * are full) wait, in their slots, and go out as soon as one can. While no back-end is connected at all, at most
 * {@code maxWaiting} requests wait; beyond that they are answered {@code error: no back-end available}, in
 * their place in the client's order.
 *
 * <p>After warm-up, forwarding, answering, reordering, pausing and resuming allocate nothing; a client
 * connecting allocates its small state once, a back-end joining or leaving its link.
 */
public final class FanoutServer implements Handler
{
    /** The longest request line accepted; a longer one closes the client's connection. */
    public static final int MAX_LINE_LENGTH = 1024;
    /** Requests in flight, over all clients, by default. */
    public static final int DEFAULT_MAX_PENDING = 4096;
    /** Requests waiting while no back-end is connected, by default. */
    public static final int DEFAULT_MAX_WAITING = 1024;
    /** First delay before reconnecting to a back-end, by default. */
    public static final long DEFAULT_RECONNECT_DELAY_MILLIS = 100;
    /** The most back-ends at once. */
    public static final int MAX_BACKENDS = 64;

    // Room for what a back-end puts before the line: BackendServer's port and colon, or more.
    static final int MAX_ANSWER_LENGTH = MAX_LINE_LENGTH + 64;

    private static final System.Logger LOG = System.getLogger(FanoutServer.class.getName());
    private static final byte[] UNAVAILABLE = "error: no back-end available".getBytes(StandardCharsets.US_ASCII);

    private final Reactor reactor;
    private final TcpServer server;
    private final RequestSlots slots;
    private final FrontClients clients;
    private final IntFifo waiting;
    private final int maxWaiting;
    private final long reconnectDelayMillis;
    private final int maxPending;
    // Replaced, not changed, when a back-end joins or leaves: other threads read it for the counters.
    private volatile BackendLink[] links = new BackendLink[0];
    private boolean opened;
    private int turn;
    private volatile long resent;
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
     * @param backends             the first back-ends' addresses (resolved or not), 0 to {@link #MAX_BACKENDS}.
     * @param maxPending           requests in flight before the clients' reads pause.
     * @param maxWaiting           requests waiting while no back-end is connected before
     *                             {@code error: no back-end available}.
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
        if (backends.size() > MAX_BACKENDS)
        {
            throw new IllegalArgumentException("at most " + MAX_BACKENDS + " back-ends: " + backends.size());
        }
        if (maxPending < 1 || maxWaiting < 1 || reconnectDelayMillis < 1)
        {
            throw new IllegalArgumentException("maxPending, maxWaiting and reconnectDelayMillis must be positive");
        }
        this.reactor = reactor;
        this.maxPending = maxPending;
        this.maxWaiting = maxWaiting;
        this.reconnectDelayMillis = reconnectDelayMillis;
        slots = new RequestSlots(maxPending, MAX_ANSWER_LENGTH);
        clients = new FrontClients(maxPending);
        // Every request in a slot may have to wait (all back-ends full): the queue holds as many as the slots.
        waiting = new IntFifo(maxPending);
        for (final InetSocketAddress address : backends)
        {
            join(address);
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
        reactor.execute(() ->
        {
            opened = true;
            for (final BackendLink link : links)
            {
                link.open();
            }
        });
        server.open();
        return this;
    }

    /**
     * Stops listening, closes every client and back-end connection, from any thread.
     */
    public void close()
    {
        server.close();
        reactor.execute(() ->
        {
            opened = false;
            for (final BackendLink link : links)
            {
                link.close();
            }
        });
    }

    /**
     * Adds a back-end, from any thread (through the reactor's queue): it connects and takes requests once
     * connected. An address already in use, or one beyond {@link #MAX_BACKENDS}, is ignored with a log line.
     *
     * @param address the back-end (resolved or not; resolved on each connect).
     */
    public void addBackend(final InetSocketAddress address)
    {
        reactor.execute(() -> join(address));
    }

    /**
     * Removes a back-end, from any thread (through the reactor's queue): it takes no new request, the requests
     * it holds are answered by it (or, if its connection is lost, by the others), and then its connection
     * closes. An unknown address is ignored.
     *
     * @param address the back-end, as given.
     */
    public void removeBackend(final InetSocketAddress address)
    {
        final String key = key(address);
        reactor.execute(() ->
        {
            for (final BackendLink link : links)
            {
                if (link.address().equals(key) && !link.isLeaving())
                {
                    link.leave();
                    return;
                }
            }
        });
    }

    /**
     * The back-ends now, those leaving included until their connection closes; readable from any thread.
     *
     * @return {@code host:port} of each, in the order they joined.
     */
    public List<String> backendAddresses()
    {
        final List<String> addresses = new ArrayList<>();
        for (final BackendLink link : links)
        {
            addresses.add(link.address());
        }
        return addresses;
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
     * How many back-ends it has now, those leaving included until their connection closes.
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
     * @param index in the order of {@link #backendAddresses()}.
     * @return true while connected.
     */
    public boolean isBackendUp(final int index)
    {
        return links[index].isConnected();
    }

    /**
     * Answers a back-end gave so far; readable from any thread.
     *
     * @param index in the order of {@link #backendAddresses()}.
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
     * How many times every client's reads paused because the request slots ran out.
     *
     * @return the count.
     */
    public long pauses()
    {
        return clients.pauses();
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
     * Gives the new client its state, allocated once per connection; it starts paused while the others are.
     */
    @Override
    public void opened(final Connection connection)
    {
        final FrontClient client = new FrontClient(connection);
        connection.attach(client);
        clients.add(client);
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
        clients.remove(client);
        int slot = client.head;
        while (slot != RequestSlots.NONE)
        {
            final int next = slots.next[slot];
            if (slots.answered[slot])
            {
                release(slot);
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
     * Forwards the line, or queues it when no back-end can take it now; pauses every client's reads when it
     * took the last slot.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer line)
    {
        final FrontClient client = connection.attachment();
        final int slot = slots.take(client, line);
        if (slot == RequestSlots.NONE)
        {
            // The reads paused when the last slot went, and nothing resumes them before one is free.
            throw new IllegalStateException("a request arrived with every slot in use and reads paused");
        }
        clients.slotTaken(slots.free());
        // Requests already waiting go first, so the oldest go out first when a back-end frees up.
        if (!waiting.isEmpty() || !forward(slot))
        {
            await(slot);
        }
    }

    /**
     * Sends to the connected back-end with the fewest pending requests; false when none could take it.
     */
    private boolean forward(final int slot)
    {
        final BackendLink[] links = this.links;
        final int count = links.length;
        if (count == 0)
        {
            return false;
        }
        final int first = turn < count ? turn : 0;
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

    /**
     * Keeps a request until a back-end can take it; while none is connected, only up to {@code maxWaiting}.
     */
    private void await(final int slot)
    {
        if (waiting.size() >= maxWaiting && !anyBackendUp())
        {
            unavailable++;
            slots.answer(slot, UNAVAILABLE);
            sendAnswers(slots.client[slot]);
            return;
        }
        waiting.offer(slot); // never full: it holds as many as there are slots
    }

    private boolean anyBackendUp()
    {
        for (final BackendLink link : links)
        {
            if (link.isUp())
            {
                return true;
            }
        }
        return false;
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
                release(slot);
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
            release(slot);
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
            release(slot);
            return;
        }
        slots.answer(slot, answer);
        sendAnswers(client);
    }

    /**
     * A leaving back-end holds no request any more: closes it and forgets it.
     */
    void retire(final BackendLink leaving)
    {
        final BackendLink[] before = links;
        final BackendLink[] after = new BackendLink[before.length - 1];
        int at = 0;
        for (final BackendLink link : before)
        {
            if (link != leaving)
            {
                after[at++] = link;
            }
        }
        links = after;
        leaving.close();
        LOG.log(System.Logger.Level.INFO, "back-end " + leaving.address() + " removed");
    }

    private void join(final InetSocketAddress address)
    {
        final String key = key(address);
        final BackendLink[] before = links;
        for (final BackendLink link : before)
        {
            if (link.address().equals(key) && !link.isLeaving())
            {
                LOG.log(System.Logger.Level.WARNING, "back-end " + key + " is already in use");
                return;
            }
        }
        if (before.length == MAX_BACKENDS)
        {
            LOG.log(System.Logger.Level.WARNING, "back-end " + key + " not added: " + MAX_BACKENDS + " already");
            return;
        }
        final BackendLink link = new BackendLink(
            this, reactor, slots, address.getHostString(), address.getPort(), reconnectDelayMillis, maxPending);
        final BackendLink[] after = Arrays.copyOf(before, before.length + 1);
        after[before.length] = link;
        links = after;
        if (opened)
        {
            link.open();
        }
    }

    private static String key(final InetSocketAddress address)
    {
        return address.getHostString() + ":" + address.getPort();
    }

    private void release(final int slot)
    {
        slots.release(slot);
        clients.slotFreed(slots.free());
    }

    private void sendAnswers(final FrontClient client)
    {
        int slot;
        while ((slot = client.head) != RequestSlots.NONE && slots.answered[slot])
        {
            // A write may close the client (a full write buffer): closed() then releases its slots.
            client.connection.write(slots.bytes[slot], 0, slots.length[slot]);
            if (client.closed)
            {
                return;
            }
            client.head = slots.next[slot];
            release(slot);
        }
        if (client.head == RequestSlots.NONE)
        {
            client.tail = RequestSlots.NONE;
        }
    }
}
