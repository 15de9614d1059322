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
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;

/**
 * After warm-up, the feed's reactor allocates nothing while it generates messages for two clients that keep up and
 * drops the oldest of one that stopped reading: the tick, the message text, the bounded outboxes and the writes are
 * all garbage-free. This is the proof for the server that {@code bench ws} runs as Celer's peer, whose own figure
 * of bytes per message, from a run of seconds, is only reported.
 */
class WsFeedZeroGarbageTest
{
    /** Messages the two fast clients receive together in a window: half a second of the feed. */
    private static final long WINDOW = 5_000;

    /** Stops the reactors after each test. */
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void generatingAndSendingAllocatesNothingOnTheReactor() throws Exception
    {
        final Reactor server = reactors.start("ws-feed");
        final WsFeedServer feed = FeedTestKit.openFeed(server, 5000, 200);
        final int port = feed.localAddress().getPort();
        final Reactor clients = reactors.start("ws-feed-clients");
        final AtomicLong received = new AtomicLong();
        FeedTestKit.connectCounting(clients, port, 2, new TcpConfig(), new AtomicInteger(), received);
        PausedReader.connect(clients, port);
        // The slow client's outbox fills and drops before any window: every tick after drops its oldest.
        Await.until("the client that does not read drops", () -> OnReactor.get(server, feed::dropped) > 0,
            Duration.ofSeconds(60));
        final long droppedBefore = OnReactor.get(server, feed::dropped);
        assertThat(FeedTestKit.allocatedPerWindow(server, received, WINDOW))
            .as("bytes the reactor allocated per window of %d messages", WINDOW).endsWith(0L);
        assertThat(OnReactor.get(server, feed::dropped)).as("drops while measured").isGreaterThan(droppedBefore);
    }
}
