package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;

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
    /** The fast clients connected after the warm ones, in batches of this many. */
    private static final int BATCH = 40;
    private static final int BATCHES = (FAST - WARM_FAST) / BATCH;
    /** Messages the fast clients receive together in a window: half a second of the feed. */
    private static final long WINDOW = FAST * RATE / 2;
    /** Clients' buffers small enough for 200 of them on one test reactor. */
    private static final TcpConfig CLIENT_TCP = new TcpConfig().readBufferSize(16 * 1024).writeBufferSize(4 * 1024);

    /** Stops the reactors after each test. */
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void clientsCostLittleAndTheFeedAllocatesNothingAtScale() throws Exception
    {
        final Reactor server = reactors.start("ws-feed");
        final WsFeedServer feed = FeedTestKit.openFeed(server, RATE, SIZE);
        final int port = feed.localAddress().getPort();
        final Reactor clients = reactors.start("ws-feed-clients");
        final AtomicInteger opened = new AtomicInteger();
        final AtomicLong received = new AtomicLong();
        // The paused clients first: their outboxes fill and take the shared pool's segments before any measure.
        for (int i = 0; i < PAUSED; i++)
        {
            PausedReader.connect(clients, port);
        }
        FeedTestKit.connectCounting(clients, port, WARM_FAST, CLIENT_TCP, opened, received);
        awaitOpened(opened, WARM_FAST);
        Await.until("the paused clients drop", () -> OnReactor.get(server, feed::dropped) > 0,
            Duration.ofSeconds(60));

        // The rest in batches, each measured: the least a client cost in a batch. What every client costs shows in
        // each batch; what comes once or with the machine's load (a compiler tier change, the arrays of all clients
        // doubling, the pool's segments growing while the clients' reactor lags) in some only.
        long perClient = Long.MAX_VALUE;
        for (int batch = 0; batch < BATCHES; batch++)
        {
            final long beforeConnecting = Allocations.allocatedBytes(server.thread());
            FeedTestKit.connectCounting(clients, port, BATCH, CLIENT_TCP, opened, received);
            awaitOpened(opened, WARM_FAST + (batch + 1) * BATCH);
            perClient = Math.min(perClient, (Allocations.allocatedBytes(server.thread()) - beforeConnecting) / BATCH);
        }
        assertThat(OnReactor.get(server, feed::clients)).as("clients on the feed").isEqualTo(PAUSED + FAST);
        assertThat(perClient).as("bytes the reactor allocated per client connected, in its best batch of %d", BATCH)
            .isLessThan(MAX_BYTES_PER_CLIENT);

        assertThat(FeedTestKit.allocatedPerWindow(server, received, WINDOW))
            .as("bytes the reactor allocated per window of %d messages", WINDOW).endsWith(0L);
    }

    private static void awaitOpened(final AtomicInteger opened, final int count)
    {
        Await.until(() -> "clients opened: " + opened.get() + " of " + count, () -> opened.get() >= count,
            Duration.ofSeconds(60));
    }
}
