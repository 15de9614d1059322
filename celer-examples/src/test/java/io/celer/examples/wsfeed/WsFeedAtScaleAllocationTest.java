package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Allocations;
import io.celer.test.Reactors;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.outbound.OverflowPolicy;

/**
 * The feed at the scale of a benchmark, 200 real clients, a tenth of them not reading: what each new client costs
 * the reactor's heap while the feed runs, and that the steady feed then allocates nothing on it.
 *
 * <p>A client that sends no data message must not hold a reassembly buffer: 200 of them each holding the default
 * 64 KiB made 13 MiB of idle heap, and the benchmark's 1,000 some 64 MiB.
 */
class WsFeedAtScaleAllocationTest
{
    private static final int PAUSED = 20;
    private static final int FAST = 180;
    /** Fast clients connected with the paused ones, before the measure, to warm the accept and upgrade path. */
    private static final int WARM_FAST = 20;
    private static final int RATE = 200;
    private static final int SIZE = 200;
    /**
     * What a new client may leave on the reactor's heap: the HTTP request table and response head its connection
     * keeps (about 7 KiB), the JDK's socket objects and Celer's connection, session, outbox and feed entry (about
     * 3 KiB), and the arrays of all clients doubling as they grow. A reassembly buffer made at the handshake (the
     * 64 KiB default) is far above it.
     */
    private static final long MAX_BYTES_PER_CLIENT = 24 * 1024;
    private static final int ROUNDS = 8;

    /** Stops the reactors after each test. */
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void clientsCostLittleAndTheFeedAllocatesNothingAtScale() throws Exception
    {
        final Reactor server = reactors.start("ws-feed");
        final WsFeedServer feed = WsFeedServer.open(server, 0,
            new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(16 * 1024),
            new WsFeedServer.Settings(RATE, SIZE, WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, 100, SIZE), 1),
            new PrintStream(OutputStream.nullOutputStream()));
        final int port = feed.localAddress().getPort();
        final Reactor clients = reactors.start("ws-feed-clients");
        final AtomicInteger opened = new AtomicInteger();
        final AtomicLong received = new AtomicLong();
        // The paused clients first: their outboxes fill and take the shared pool's segments before any measure.
        for (int i = 0; i < PAUSED; i++)
        {
            PausedReader.connect(clients, port);
        }
        connect(clients, port, WARM_FAST, opened, received);
        awaitOpened(opened, WARM_FAST);
        Thread.sleep(2000);
        final long[] dropped = new long[1];
        server.call(() -> dropped[0] = feed.dropped());
        assertThat(dropped[0]).as("the paused clients drop by warm-up's end").isPositive();

        final long beforeConnecting = Allocations.allocatedBytes(server.thread());
        connect(clients, port, FAST - WARM_FAST, opened, received);
        awaitOpened(opened, FAST);
        final long perClient = (Allocations.allocatedBytes(server.thread()) - beforeConnecting) / (FAST - WARM_FAST);
        final int[] onFeed = new int[1];
        server.call(() -> onFeed[0] = feed.clients());
        assertThat(onFeed[0]).as("clients on the feed").isEqualTo(PAUSED + FAST);
        assertThat(perClient).as("bytes the reactor allocated per client connected").isLessThan(MAX_BYTES_PER_CLIENT);

        // The new clients' first ticks and the compiler settle.
        Thread.sleep(2000);
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS && least > 0; round++)
        {
            final long before = Allocations.allocatedBytes(server.thread());
            final long receivedBefore = received.get();
            Thread.sleep(1000);
            least = Math.min(least, Allocations.allocatedBytes(server.thread()) - before);
            assertThat(received.get()).as("messages flow while measuring").isGreaterThan(receivedBefore);
        }
        assertThat(least).as("bytes the reactor allocated in its best second of the feed").isZero();
    }

    private static void connect(final Reactor reactor, final int port, final int count, final AtomicInteger opened,
        final AtomicLong received)
    {
        for (int i = 0; i < count; i++)
        {
            new WebSocketClient(reactor, "ws://127.0.0.1:" + port + "/", new WebSocketConfig(), new WebSocketHandler()
            {
                @Override
                public void opened(final WebSocket socket)
                {
                    opened.incrementAndGet();
                }

                @Override
                public void text(final WebSocket socket, final Utf8Text message)
                {
                    received.incrementAndGet();
                }
            }).tcp(new TcpConfig().readBufferSize(16 * 1024).writeBufferSize(4 * 1024)).open();
        }
    }

    private static void awaitOpened(final AtomicInteger opened, final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (opened.get() < count)
        {
            assertThat(System.nanoTime() - deadline).as("clients opened in time: " + opened.get() + " of " + count)
                .isNegative();
            Thread.sleep(10);
        }
    }
}
