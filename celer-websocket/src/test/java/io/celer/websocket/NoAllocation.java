package io.celer.websocket;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.SteadyAllocation;

/**
 * Measures the heap bytes a thread allocates after warm-up: the current one running a body, or two reactor
 * threads while their peers exchange messages.
 *
 * <p>A warm-up counted in runs is not enough on a loaded machine: the compiler threads lag, and the measured rounds
 * would still see code being compiled and installed, whose first calls allocate once on the calling thread. So the
 * warm-up goes on, in rounds a fifth of a measured one, until a round passes in which the JIT compiled nothing, as
 * the core's {@code SteadyAllocation} does for one thread; the measured rounds then see what is left of it, once.
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
     * Runs the body {@code warmUp} times, and shorter rounds until the JIT is quiet; then measures up to five rounds
     * of {@code measured} runs and returns the least any round allocated: a compiler tier change may allocate once
     * on the thread, but an allocation per run shows in every round.
     */
    public static long leastAllocated(final Runnable body, final int warmUp, final int measured) throws Exception
    {
        for (int i = 0; i < warmUp; i++)
        {
            body.run();
        }
        SteadyAllocation.untilTheJitIsQuiet(() ->
        {
            for (int i = 0; i < settling(measured); i++)
            {
                body.run();
            }
        });
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
     * Waits for {@code warmUp} round trips, and for shorter rounds until the JIT is quiet; then measures up to five
     * rounds of {@code measured} round trips (a minute at most each) and returns the least each reactor thread
     * allocated in a round: a compiler tier change may allocate once, a per-message allocation shows in every round.
     *
     * @param pinger   the peer counting round trips.
     * @param warmUp   round trips before measuring.
     * @param measured round trips a round.
     * @param server   the server's reactor thread.
     * @param client   the client's reactor thread.
     * @return the least bytes allocated, and the fewest round trips a round made.
     * @throws Exception if interrupted while waiting.
     */
    public static Least leastAllocated(
        final Pinger pinger, final long warmUp, final long measured, final Thread server, final Thread client)
        throws Exception
    {
        Await.until(() -> "warm-up, at " + pinger.roundTrips(), () -> pinger.roundTrips() >= warmUp,
            Duration.ofMinutes(3));
        SteadyAllocation.untilTheJitIsQuiet(() -> roundTrips(pinger, settling(measured)));
        long leastServer = Long.MAX_VALUE;
        long leastClient = Long.MAX_VALUE;
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < 5 && (leastServer > 0 || leastClient > 0); round++)
        {
            final long serverBefore = Allocations.allocatedBytes(server);
            final long clientBefore = Allocations.allocatedBytes(client);
            fewest = Math.min(fewest, roundTrips(pinger, measured));
            leastServer = Math.min(leastServer, Allocations.allocatedBytes(server) - serverBefore);
            leastClient = Math.min(leastClient, Allocations.allocatedBytes(client) - clientBefore);
        }
        return new Least(fewest, leastServer, leastClient);
    }

    /**
     * The work of a round that waits for the JIT: a fifth of a measured round.
     *
     * @param measured the work of a measured round.
     * @return the work of a settling round, at least 1.
     */
    public static int settling(final long measured)
    {
        return (int)Math.max(1, measured / 5);
    }

    /** Waits for a number of round trips, a minute at most; returns how many were made. */
    private static long roundTrips(final Pinger pinger, final long count) throws InterruptedException
    {
        final long start = pinger.roundTrips();
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (pinger.roundTrips() - start < count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        return pinger.roundTrips() - start;
    }
}
