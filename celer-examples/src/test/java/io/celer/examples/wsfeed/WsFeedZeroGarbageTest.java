package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
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
 * After warm-up, the feed's reactor allocates nothing while it generates messages for two clients that keep up and
 * drops the oldest of one that stopped reading: the tick, the message text, the outboxes and the writes are all
 * garbage-free.
 */
class WsFeedZeroGarbageTest
{
    private static final int ROUNDS = 5;

    /** Stops the reactors after each test. */
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void generatingAndSendingAllocatesNothingOnTheReactor() throws Exception
    {
        final Reactor server = reactors.start("ws-feed");
        final WsFeedServer feed = WsFeedServer.open(server, 0,
            new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(16 * 1024),
            new WsFeedServer.Settings(5000, 200, WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, 100, 200), 1),
            new PrintStream(OutputStream.nullOutputStream()));
        final int port = feed.localAddress().getPort();
        final Reactor clients = reactors.start("ws-feed-clients");
        final AtomicLong received = new AtomicLong();
        for (int i = 0; i < 2; i++)
        {
            new WebSocketClient(clients, "ws://127.0.0.1:" + port + "/", new WebSocketConfig(), new WebSocketHandler()
            {
                @Override
                public void text(final WebSocket socket, final Utf8Text message)
                {
                    received.incrementAndGet();
                }
            }).open();
        }
        PausedReader.connect(clients, port);
        // Warm-up: the slow client's outbox fills and drops; the compiler settles.
        Thread.sleep(3000);
        final long[] dropped = new long[1];
        server.call(() -> dropped[0] = feed.dropped());
        assertThat(dropped[0]).as("the client that does not read drops by warm-up's end").isPositive();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS && least > 0; round++)
        {
            final long before = Allocations.allocatedBytes(server.thread());
            final long receivedBefore = received.get();
            Thread.sleep(1000);
            least = Math.min(least, Allocations.allocatedBytes(server.thread()) - before);
            assertThat(received.get()).as("messages flow while measuring").isGreaterThan(receivedBefore);
        }
        assertThat(least).as("bytes the reactor allocated in its best second").isZero();
    }
}
