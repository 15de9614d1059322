package io.celer.examples.support;

import io.celer.test.Allocations;
import io.celer.test.SteadyAllocation;

/**
 * Bytes a thread allocates in up to three windows of the same warm work, stopping at the first that allocated
 * nothing: a deoptimisation re-creates, once, the objects compiled code had kept in registers; garbage made per
 * request shows in every window.
 */
public final class AllocationWindows
{
    /** What {@link #measure} reads for work that allocates nothing once warm: a window of 0 within three. */
    public static final String STEADY = "(\\d+ ){0,2}0";

    private static final int MOST = 3;

    private AllocationWindows()
    {
    }

    /**
     * Runs windows of work until one allocates nothing on the thread, three at most.
     *
     * @param thread the thread whose allocations count: the caller's, or another one alive throughout.
     * @param window the work of one window.
     * @return the bytes of each window, in order, separated by spaces; matches {@link #STEADY} when garbage-free.
     * @throws Exception when the work fails.
     */
    public static String measure(final Thread thread, final SteadyAllocation.Window window) throws Exception
    {
        final StringBuilder windows = new StringBuilder();
        for (int i = 0; i < MOST; i++)
        {
            final long before = allocatedBytes(thread);
            window.run();
            final long allocated = allocatedBytes(thread) - before;
            windows.append(allocated).append(' ');
            if (allocated == 0)
            {
                break;
            }
        }
        return windows.toString().trim();
    }

    private static long allocatedBytes(final Thread thread)
    {
        // The calling thread's own count has a read that allocates nothing, so the measure does not count itself.
        return thread == Thread.currentThread() ?
            Allocations.currentThreadAllocatedBytes() : Allocations.allocatedBytes(thread);
    }
}
