package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Allocations;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.outbound.OverflowPolicy;

/**
 * What the feed's allocation tests share: a quiet feed server, clients that count what they get, and the measure of
 * the reactor's best second.
 */
final class FeedTestKit
{
    private FeedTestKit()
    {
    }

    /**
     * A feed on loopback with small socket send buffers and outboxes of 100 messages dropping the oldest, printing
     * nothing.
     *
     * @param server its reactor.
     * @param rate   messages a second to each client.
     * @param size   bytes a message.
     * @return the open feed.
     */
    static WsFeedServer openFeed(final Reactor server, final int rate, final int size)
    {
        return WsFeedServer.open(server, 0,
            new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(16 * 1024),
            new WsFeedServer.Settings(rate, size, WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, 100, size), 1),
            new PrintStream(OutputStream.nullOutputStream()));
    }

    /**
     * Connects clients that read everything and count it.
     *
     * @param reactor  the clients' reactor.
     * @param port     the feed's port.
     * @param count    how many.
     * @param tcp      their connections' settings.
     * @param opened   counts the handshakes done.
     * @param received counts the messages.
     */
    static void connectCounting(final Reactor reactor, final int port, final int count, final TcpConfig tcp,
        final AtomicInteger opened, final AtomicLong received)
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
            }).tcp(tcp).open();
        }
    }

    /**
     * The least the server's reactor allocated in one second of the feed, over at most some rounds, stopping at the
     * first that allocated nothing; asserts that messages flowed in each.
     *
     * @param server   the feed's reactor.
     * @param received the clients' count of messages.
     * @param rounds   seconds to measure at most.
     * @return bytes.
     * @throws InterruptedException if interrupted while measuring.
     */
    static long leastAllocatedInASecond(final Reactor server, final AtomicLong received, final int rounds)
        throws InterruptedException
    {
        long least = Long.MAX_VALUE;
        for (int round = 0; round < rounds && least > 0; round++)
        {
            final long before = Allocations.allocatedBytes(server.thread());
            final long receivedBefore = received.get();
            Thread.sleep(1000);
            least = Math.min(least, Allocations.allocatedBytes(server.thread()) - before);
            assertThat(received.get()).as("messages flow while measuring").isGreaterThan(receivedBefore);
        }
        return least;
    }
}
