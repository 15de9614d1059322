package io.celer.bench.http.peer;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Waits, a bounded time, for a peer's threads to end as it stops; an interrupt ends the wait and is kept for the
 * caller.
 */
final class Stopping
{
    private static final long WAIT_MILLIS = 5_000;

    private Stopping()
    {
    }

    /**
     * Waits for a thread to end.
     *
     * @param thread the thread, already told to stop.
     */
    static void join(final Thread thread)
    {
        try
        {
            thread.join(WAIT_MILLIS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Interrupts a pool's tasks and waits for them to end.
     *
     * @param pool the pool.
     */
    static void shutDown(final ExecutorService pool)
    {
        pool.shutdownNow();
        try
        {
            pool.awaitTermination(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
