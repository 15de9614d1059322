package io.celer.websocket;

import io.celer.test.Allocations;

/**
 * Measures the heap bytes the current thread allocates running a body, after warm-up.
 */
final class NoAllocation
{
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
}
