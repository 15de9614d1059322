package io.celer.websocket.outbound;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.internal.WebSocketSession;

/**
 * A server whose sessions send through a {@link Fanout}, well-behaved clients on a Celer client reactor, and raw
 * peers that read only when told. The server keeps small buffers (a 16 KiB write buffer and socket send buffer) so
 * that a peer that does not read fills them soon; its connections refuse writes that do not fit rather than close.
 */
final class SlowClientRig implements AutoCloseable
{
    /** The length of every message: a sequence number and filler. */
    static final int MESSAGE_LENGTH = 100;
    /** Messages {@link #publishPaced} lets be on their way to the fast client at once. */
    private static final int IN_FLIGHT = 40;
    private static final byte[] FILLER = new byte[MESSAGE_LENGTH - 8];

    final Reactor serverReactor;
    final Reactor clientReactor;
    final Fanout fanout;
    final int port;
    final List<SequenceReader> fast = new ArrayList<>();
    final ConcurrentLinkedQueue<Long> openedIds;
    final List<Long> fastIds = new ArrayList<>();
    private final Reactors reactors = new Reactors();
    /** Server reactor only. */
    private final ByteBuffer message = ByteBuffer.allocate(MESSAGE_LENGTH);
    /** Server reactor only: the next sequence number. */
    private long next;
    /** Server reactor only: the first message some client refused, or -1. */
    private long firstRefused = -1;

    /**
     * A small queue per client that drops its oldest message for each new one once full.
     *
     * @return 1,000 messages or 3,000 bytes of messages of {@link #MESSAGE_LENGTH}, dropping the oldest.
     */
    static OutboundConfig smallDroppingQueue()
    {
        return new OutboundConfig().maxQueuedMessages(1_000).maxQueuedBytes(3_000).maxMessageLength(MESSAGE_LENGTH)
            .overflowPolicy(OverflowPolicy.DROP_OLDEST);
    }

    /**
     * A publisher to all the clients, made on the server reactor.
     *
     * @param capacity  its ring's slots.
     * @param producers the threads that will publish.
     * @return the publisher.
     */
    Publisher publisher(final int capacity, final int producers)
    {
        return onServer(() -> new Publisher(serverReactor, fanout, capacity, producers));
    }

    SlowClientRig(final OutboundConfig config)
    {
        this(config, new LagListener()
        {
        });
    }

    SlowClientRig(final OutboundConfig config, final LagListener listener)
    {
        serverReactor = reactors.start("server");
        clientReactor = reactors.start("client");
        fanout = new Fanout(config, listener);
        final TcpConfig tcp = new TcpConfig().bindAddress("127.0.0.1").disconnectOnFullWriteBuffer(false)
            .writeBufferSize(16 * 1024).socketSendBufferSize(16 * 1024);
        final FanoutServer server = new FanoutServer(serverReactor, fanout, tcp);
        port = server.port();
        openedIds = server.openedIds;
    }

    void connectFast(final int clients)
    {
        for (int i = 0; i < clients; i++)
        {
            final SequenceReader reader = new SequenceReader();
            fast.add(reader);
            connect(reader);
        }
        awaitClients(fast.size());
        fastIds.addAll(openedIds);
        openedIds.clear();
    }

    /**
     * Connects a well-behaved client on the client reactor.
     */
    void connect(final WebSocketHandler handler)
    {
        new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig(),
            new StubUpgrade(false, () -> WebSocketSession.client(new WebSocketConfig(), handler))).open();
    }

    /**
     * A peer that never reads unless told; its id on the server.
     */
    RawPeer connectSlow(final int expectedClients) throws IOException
    {
        final RawPeer peer = new RawPeer(port, 4096);
        awaitClients(expectedClients);
        return peer;
    }

    void awaitClients(final int count)
    {
        Await.until(() -> "clients open: " + count, () -> onServer(fanout::clientCount) == count,
            Duration.ofSeconds(30));
    }

    <T> T onServer(final Supplier<T> query)
    {
        return OnReactor.get(serverReactor, query);
    }

    /**
     * Broadcasts messages numbered on from the last; on the server reactor.
     *
     * @return how many clients took each message.
     */
    int[] broadcast(final int messages)
    {
        return onServer(() ->
        {
            final int[] taken = new int[messages];
            for (int i = 0; i < messages; i++)
            {
                message.clear().putLong(0, next);
                final int clients = fanout.clientCount();
                taken[i] = fanout.broadcastBinary(message);
                if (taken[i] < clients && firstRefused < 0)
                {
                    firstRefused = next;
                }
                next++;
            }
            return taken;
        });
    }

    long sent()
    {
        return onServer(() -> next);
    }

    long firstRefused()
    {
        return onServer(() -> firstRefused);
    }

    /**
     * Waits until every fast client received every message sent so far.
     */
    void awaitFast()
    {
        final long sent = sent();
        for (final SequenceReader reader : fast)
        {
            Await.until(() -> "fast client at " + reader.received + " of " + sent, () -> reader.received >= sent,
                Duration.ofSeconds(30));
        }
    }

    /**
     * Broadcasts in small batches, each waiting for the fast clients, until the condition holds on the server.
     */
    void broadcastUntil(final Supplier<Boolean> serverCondition, final long maxMessages)
    {
        while (!onServer(serverCondition))
        {
            if (sent() >= maxMessages)
            {
                throw new AssertionError("still not so after " + maxMessages + " messages: " +
                    onServer(fanout::toString));
            }
            broadcast(10);
            awaitFast();
        }
    }

    /**
     * Publishes numbered messages to all from the calling thread, keeping at most a few in flight to the fast
     * client so that it never queues; waits by spinning, which allocates nothing.
     */
    static void publishPaced(final Publisher publisher, final SequenceReader fast, final long from, final long to)
    {
        for (long sequence = from; sequence < to; sequence++)
        {
            while (sequence - fast.received >= IN_FLIGHT)
            {
                Thread.onSpinWait();
            }
            publisher.claim(Thread::onSpinWait).toAll().payload().putLong(sequence).put(FILLER);
            publisher.publish();
        }
        while (fast.received < to)
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public void close()
    {
        reactors.close();
    }
}
