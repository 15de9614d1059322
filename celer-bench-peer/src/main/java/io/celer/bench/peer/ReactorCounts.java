package io.celer.bench.peer;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import io.celer.reactor.Reactor;

/**
 * Waits on a count that a driver keeps on its reactor's thread, such as its open connections.
 */
public final class ReactorCounts
{
    private ReactorCounts()
    {
    }

    /**
     * Waits, boundedly, until a count reaches a target, reading it on the reactor's thread every 50 ms.
     *
     * @param reactor the thread that owns the count.
     * @param count   reads it; run on the reactor.
     * @param target  the count awaited.
     * @param seconds the most to wait.
     * @return the last count read: the target or more, or less when the time ran out.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static int await(final Reactor reactor, final IntSupplier count, final int target, final int seconds)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        final int[] seen = new int[1];
        do
        {
            reactor.call(() -> seen[0] = count.getAsInt());
            if (seen[0] >= target)
            {
                break;
            }
            Thread.sleep(50);
        }
        while (System.nanoTime() < deadline);
        return seen[0];
    }
}
