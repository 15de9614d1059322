package io.celer.websocket;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.celer.test.Allocations;
import io.celer.test.Await;

/**
 * Measures the heap bytes a thread allocates after warm-up: the current one running a body, or two reactor
 * threads while their peers exchange messages.
 */
public final class NoAllocation
{
    /**
     * The least bytes each reactor thread allocated in a round.
     *
     * @param roundTrips the fewest round trips a round made.
     * @param server     bytes on the server's reactor thread.
     * @param client     bytes on the client's reactor thread.
     */
    public record Least(long roundTrips, long server, long client)
    {
    }

    private NoAllocation()
    {
    }

    /**
     * Runs the body {@code warmUp} times, then up to five rounds of {@code measured} runs, and returns the least any
     * round allocated: a compiler tier change may allocate once on the thread, but an allocation per run shows in
     * every round.
     */
    static long leastAllocated(final Runnable body, final int warmUp, final int measured)
    {
        for (int i = 0; i < warmUp; i++)
        {
            body.run();
        }
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 5 && least > 0; round++)
        {
            final long before = Allocations.currentThreadAllocatedBytes();
            for (int i = 0; i < measured; i++)
            {
                body.run();
            }
            least = Math.min(least, Allocations.currentThreadAllocatedBytes() - before);
        }
        return least;
    }

    /**
     * Waits for {@code warmUp} round trips, then measures up to five rounds of {@code measured} round trips (a
     * minute at most each) and returns the least each reactor thread allocated in a round: a compiler tier change
     * may allocate once, a per-message allocation shows in every round.
     *
     * @param pinger   the peer counting round trips.
     * @param warmUp   round trips before measuring.
     * @param measured round trips a round.
     * @param server   the server's reactor thread.
     * @param client   the client's reactor thread.
     * @return the least bytes allocated, and the fewest round trips a round made.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static Least leastAllocated(
        final Pinger pinger, final long warmUp, final long measured, final Thread server, final Thread client)
        throws InterruptedException
    {
        Await.until(() -> "warm-up, at " + pinger.roundTrips(), () -> pinger.roundTrips() >= warmUp,
            Duration.ofMinutes(3));
        long leastServer = Long.MAX_VALUE;
        long leastClient = Long.MAX_VALUE;
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < 5 && (leastServer > 0 || leastClient > 0); round++)
        {
            final long serverBefore = Allocations.allocatedBytes(server);
            final long clientBefore = Allocations.allocatedBytes(client);
            final long start = pinger.roundTrips();
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (pinger.roundTrips() - start < measured && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            fewest = Math.min(fewest, pinger.roundTrips() - start);
            leastServer = Math.min(leastServer, Allocations.allocatedBytes(server) - serverBefore);
            leastClient = Math.min(leastClient, Allocations.allocatedBytes(client) - clientBefore);
        }
        return new Least(fewest, leastServer, leastClient);
    }
}
