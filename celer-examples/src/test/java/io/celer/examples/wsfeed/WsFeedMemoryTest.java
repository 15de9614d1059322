package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.outbound.Outbox;
import io.celer.websocket.outbound.OverflowPolicy;

/**
 * The feed server holds little per client that keeps up: whatever buffers the caller's TCP settings ask for, its
 * connections get a write buffer sized for a tick's messages and no queue storage, while the client's messages flow
 * in order; a message larger than the default write buffer still fits the one the server picks. A client that stops
 * reading holds no more than its outbox's byte bound, and none once it has caught up.
 */
class WsFeedMemoryTest
{
    /** Stops the reactors after each test. */
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aClientThatKeepsUpHoldsASmallWriteBufferAndNoQueue()
    {
        final Reactor server = reactors.start("ws-feed");
        final WsFeedServer feed = WsFeedServer.open(server, 0,
            new TcpConfig().bindAddress("127.0.0.1").writeBufferSize(256 * 1024).readBufferSize(256 * 1024),
            new WsFeedServer.Settings(1000, 250, WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, 100, 250), 1),
            new PrintStream(OutputStream.nullOutputStream()));
        final AtomicLong received = connect(feed);
        Await.until(() -> "messages received: " + received.get(), () -> received.get() >= 500, Duration.ofSeconds(60));

        final Outbox client = only(server, feed);
        final int[] state = new int[2];
        server.call(() ->
        {
            state[0] = client.socket().connection().writeBufferCapacity();
            state[1] = client.queueStorage();
        });
        assertThat(state[0]).as("write buffer").isEqualTo(WsFeedServer.WRITE_BUFFER);
        assertThat(state[1]).as("queue storage of a client that keeps up").isZero();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aMessageLargerThanTheSmallWriteBufferStillFlows()
    {
        final int size = WsFeedServer.WRITE_BUFFER + 1000;
        final Reactor server = reactors.start("ws-feed");
        final WsFeedServer feed = WsFeedServer.open(server, 0, new TcpConfig().bindAddress("127.0.0.1"),
            new WsFeedServer.Settings(100, size, WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, 10, size), 1),
            new PrintStream(OutputStream.nullOutputStream()));
        final AtomicLong received = connect(feed);
        Await.until(() -> "messages received: " + received.get(), () -> received.get() >= 20, Duration.ofSeconds(60));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aClientThatStopsReadingHoldsItsByteBoundAtMostAndGivesTheStorageBackOnceItReads() throws Exception
    {
        final int maxBytes = 64 * 1024;
        final Reactor server = reactors.start("ws-feed");
        final WsFeedServer feed = WsFeedServer.open(server, 0,
            new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(16 * 1024),
            new WsFeedServer.Settings(5000, 250,
                WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST, WsFeedServer.DEFAULT_QUEUED_MESSAGES, maxBytes, 250),
                1),
            new PrintStream(OutputStream.nullOutputStream()));
        final PausedReader slow = PausedReader.connect(reactors.start("ws-feed-slow"), feed.localAddress().getPort());
        final Outbox client = only(server, feed);
        Await.until(() -> "the paused client drops", () -> OnReactor.get(server, client::dropped) > 100,
            Duration.ofSeconds(60));

        final long[] state = new long[2];
        server.call(() ->
        {
            state[0] = client.queuedBytes();
            state[1] = client.queueStorage();
        });
        assertThat(state[0]).as("queued bytes").isLessThanOrEqualTo(maxBytes);
        // The message bound alone would let 5,000 messages of 250 bytes, over 1.2 MB, pile up.
        assertThat(state[1]).as("queue storage").isPositive().isLessThanOrEqualTo(2L * maxBytes);

        slow.resume();
        Await.until(() -> "the client caught up", () -> OnReactor.get(server, () -> client.queuedMessages() == 0 &&
            client.queueStorage() == 0), Duration.ofSeconds(60));
        assertThat(slow.backwards).isZero();
    }

    private AtomicLong connect(final WsFeedServer feed)
    {
        final Reactor clients = reactors.start("ws-feed-client");
        final AtomicLong received = new AtomicLong();
        new WebSocketClient(clients, "ws://127.0.0.1:" + feed.localAddress().getPort() + "/", new WebSocketConfig(),
            new WebSocketHandler()
            {
                @Override
                public void text(final WebSocket socket, final Utf8Text message)
                {
                    // In order from 0: a gap or a repeat stops the count, and the wait fails.
                    if (FeedText.sequence(message) == received.get())
                    {
                        received.incrementAndGet();
                    }
                }
            }).open();
        return received;
    }

    private static Outbox only(final Reactor server, final WsFeedServer feed)
    {
        return OnReactor.get(server, () ->
        {
            assertThat(feed.clients()).isEqualTo(1);
            return feed.client(0);
        });
    }
}
