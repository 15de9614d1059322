package io.celer.bench.queues;

import java.lang.management.ManagementFactory;

/**
 * Bytes a thread has allocated, from the JDK's thread bean.
 */
final class Allocation
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private Allocation()
    {
    }

    /**
     * The calling thread's allocated bytes so far.
     *
     * @return bytes.
     */
    static long ofCurrentThread()
    {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * Another thread's allocated bytes so far.
     *
     * @param thread a live thread.
     * @return bytes, or -1 when the thread has ended.
     */
    static long of(final Thread thread)
    {
        return THREADS.getThreadAllocatedBytes(thread.getId());
    }
}
