package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;

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
        final WsFeedServer feed = FeedTestKit.openFeed(server, 5000, 200);
        final int port = feed.localAddress().getPort();
        final Reactor clients = reactors.start("ws-feed-clients");
        final AtomicLong received = new AtomicLong();
        FeedTestKit.connectCounting(clients, port, 2, new TcpConfig(), new AtomicInteger(), received);
        PausedReader.connect(clients, port);
        // Warm-up: the slow client's outbox fills and drops; the compiler settles.
        Thread.sleep(3000);
        assertThat(OnReactor.get(server, feed::dropped)).as("the client that does not read drops by warm-up's end").isPositive();
        final long least = FeedTestKit.leastAllocatedInASecond(server, received, ROUNDS);
        assertThat(least).as("bytes the reactor allocated in its best second").isZero();
    }
}
