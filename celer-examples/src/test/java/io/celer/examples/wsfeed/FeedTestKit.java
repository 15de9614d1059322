package io.celer.examples.wsfeed;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.SteadyAllocation;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.outbound.OverflowPolicy;

/**
 * What the feed's allocation tests share: a quiet feed server, clients that count what they get, and the measure of
 * the reactor's allocation over windows of messages.
 */
final class FeedTestKit
{
    /** The bound of one window's wait for its messages. */
    private static final Duration WINDOW_BOUND = Duration.ofSeconds(60);

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
     * What the server's reactor allocated in windows of the feed, once the JIT is quiet: each window lasts until
     * the clients have received some more messages, however slowly a loaded machine runs it.
     *
     * @param server   the feed's reactor.
     * @param received the clients' count of messages.
     * @param messages messages a window.
     * @return bytes allocated in each measured window; the last is 0 when the feed allocates nothing.
     * @throws Exception if a window's messages do not come.
     */
    static List<Long> allocatedPerWindow(final Reactor server, final AtomicLong received, final long messages)
        throws Exception
    {
        return SteadyAllocation.perWindow(server.thread(), () ->
        {
            final long target = received.get() + messages;
            Await.until(() -> "messages received: " + received.get() + " of " + target,
                () -> received.get() >= target, WINDOW_BOUND);
        });
    }
}
