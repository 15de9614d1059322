package io.celer.bench.peer.server;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * What a server process holds once full collections have run, for the harness's {@code memory} command: the
 * heap in use and the JDK's direct buffers (Netty's and Vert.x's pooled buffers among them: on a JDK 9+ without
 * {@code -Dio.netty.tryReflectionSetAccessible=true} Netty allocates them through {@code ByteBuffer}).
 */
public final class MemoryAfterGc
{
    /** How the line starts. */
    public static final String PREFIX = "memory ";

    /** Time for the reference handler to run the cleaners of direct buffers the first collection found dead. */
    private static final long CLEANER_MILLIS = 200;

    private MemoryAfterGc()
    {
    }

    /**
     * Collects, then measures.
     *
     * @return {@code memory heap_used=B direct_used=B direct_buffers=N gc_ms=T}.
     */
    public static String line()
    {
        final long start = System.nanoTime();
        // Under G1, Parallel and Serial System.gc() is a full, compacting collection unless the JVM was told
        // otherwise (-XX:+ExplicitGCInvokesConcurrent, -XX:+DisableExplicitGC), which the peers are not.
        System.gc();
        try
        {
            Thread.sleep(CLEANER_MILLIS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        System.gc();
        final long gcMillis = (System.nanoTime() - start) / 1_000_000 - CLEANER_MILLIS;
        final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long directBytes = -1;
        long directBuffers = -1;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if (pool.getName().equals("direct"))
            {
                directBytes = pool.getMemoryUsed();
                directBuffers = pool.getCount();
            }
        }
        return PREFIX + "heap_used=" + heap + " direct_used=" + directBytes + " direct_buffers=" + directBuffers
            + " gc_ms=" + gcMillis;
    }
}
