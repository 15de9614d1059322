package io.celer.test;

import java.lang.management.ManagementFactory;

/**
 * Reads how many bytes a thread has allocated on the heap, through HotSpot's thread bean.
 */
public final class Allocations
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    static
    {
        THREADS.setThreadAllocatedMemoryEnabled(true);
        for (int i = 0; i < 1_000; i++)
        {
            // The first calls allocate (lazy initialisation in the bean); later ones do not.
            THREADS.getCurrentThreadAllocatedBytes();
        }
    }

    private Allocations()
    {
    }

    /**
     * Bytes the calling thread allocated since it started; allocates nothing itself once warm.
     *
     * @return bytes.
     */
    public static long currentThreadAllocatedBytes()
    {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * Bytes the thread allocated since it started.
     *
     * @param thread a live thread.
     * @return bytes.
     */
    public static long allocatedBytes(final Thread thread)
    {
        final long bytes = THREADS.getThreadAllocatedBytes(thread.getId());
        if (bytes < 0)
        {
            throw new IllegalStateException("thread allocation accounting is not available on this JVM");
        }
        return bytes;
    }
}
