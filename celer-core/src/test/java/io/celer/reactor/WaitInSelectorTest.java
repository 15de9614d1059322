package io.celer.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.framing.LineFraming;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * A reactor that waits in the selector when idle: other threads' callbacks, timers and ready channels each end
 * the wait, and while nothing happens its thread uses next to no CPU.
 */
class WaitInSelectorTest
{
    private final Reactor reactor = new Reactor(new ReactorConfig().name("waiting").waitInSelector(true)
        .daemon(true)).start();

    @AfterEach
    void stop()
    {
        reactor.stop();
    }

    @Test
    void callbacksFromAnotherThreadEndTheWait() throws InterruptedException
    {
        final AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 200; i++)
        {
            reactor.call(ran::incrementAndGet);
            if (i % 50 == 0)
            {
                Thread.sleep(20); // long enough for the reactor to be waiting again
            }
        }
        final CountDownLatch async = new CountDownLatch(1);
        Thread.sleep(20);
        assertThat(reactor.callAsync(async::countDown)).isTrue();
        assertThat(async.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).hasValue(200);
    }

    @Test
    void aTimerEndsTheWaitEvenBehindALaterOne() throws InterruptedException
    {
        final CountDownLatch fired = new CountDownLatch(1);
        final long[] firedAfter = new long[1];
        final long start = System.nanoTime();
        reactor.execute(() ->
        {
            reactor.schedule(60_000, (id, now) -> { });
            reactor.schedule(50, (id, now) ->
            {
                firedAfter[0] = System.nanoTime() - start;
                fired.countDown();
            });
        });
        assertThat(fired.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(firedAfter[0]).as("never before its deadline").isGreaterThanOrEqualTo(
            TimeUnit.MILLISECONDS.toNanos(50));
    }

    @Test
    void aReadyChannelEndsTheWaitAndItsOwnerSeesTheTimeAfterIt() throws Exception
    {
        final long[] seenAt = new long[2];
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)), new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    seenAt[0] = reactor.nowMillis();
                    seenAt[1] = System.nanoTime();
                    connection.send(message);
                }
            }).open();
        try (Socket client = new Socket("127.0.0.1", server.port()))
        {
            client.setSoTimeout(30_000);
            Thread.sleep(300); // the reactor waits in the selector meanwhile
            final long sentAt = System.nanoTime();
            client.getOutputStream().write("wake\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII))
                .readLine()).isEqualTo("wake");
            assertThat(seenAt[1]).isGreaterThan(sentAt);
        }
        final long[] clock = new long[1];
        reactor.call(() -> clock[0] = reactor.nowMillis());
        assertThat(clock[0] - seenAt[0]).as("the clock the handler saw was not the one before the wait")
            .isLessThan(250);
        server.close();
    }

    @Test
    void aRoundTripTakesOneSelectNotThree() throws Exception
    {
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)), new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    connection.send(message);
                }
            }).open();
        final int roundTrips = 2_000;
        try (Socket client = new Socket("127.0.0.1", server.port()))
        {
            client.setSoTimeout(30_000);
            client.setTcpNoDelay(true);
            final BufferedReader in =
                new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
            final byte[] ping = "ping\n".getBytes(StandardCharsets.US_ASCII);
            roundTrip(client, in, ping); // the connection's set-up cycles are not counted
            final long before = cycles();
            final long start = System.nanoTime();
            for (int i = 0; i < roundTrips; i++)
            {
                roundTrip(client, in, ping);
            }
            final long ticks = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            final long cycles = cycles() - before;
            // A waiting reactor makes one select per cycle. Each round trip needs one: the wait that hands the
            // ready connection to its owner. A wait followed by a select, and a select finding nothing before
            // the next wait, made 1.3 to 2 cycles a round trip, and three selects. The server's timer wheel
            // adds a wake-up per tick (about a millisecond) while it holds timers.
            assertThat(cycles).as("cycles for %d round trips in %d ms", roundTrips, ticks)
                .isLessThan(roundTrips * 115L / 100 + ticks);
        }
        server.close();
    }

    private static void roundTrip(final Socket client, final BufferedReader in, final byte[] ping) throws Exception
    {
        client.getOutputStream().write(ping);
        assertThat(in.readLine()).isEqualTo("ping");
    }

    private long cycles()
    {
        final long[] cycles = new long[1];
        // Read on the reactor after a flush, so that the count is whole; this call's own cycle adds one.
        reactor.call(() ->
        {
            reactor.counters().flush();
            cycles[0] = reactor.counters().total("reactor.cycles", "").get();
        });
        return cycles[0];
    }

    @Test
    void itUsesNextToNoCpuWhileIdle() throws InterruptedException
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), new Handler()
        {
        }).open(); // its timers keep the wheel busy: the wait wakes at every tick
        Thread.sleep(200);
        final long tid = reactor.thread().getId();
        final long before = threads.getThreadCpuTime(tid);
        Thread.sleep(1_000);
        final long used = threads.getThreadCpuTime(tid) - before;
        // Spinning or yielding would use the better part of a second.
        assertThat(used).as("CPU nanoseconds in a second of idleness").isLessThan(TimeUnit.MILLISECONDS.toNanos(150));
        server.close();
    }
}
