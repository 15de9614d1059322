package io.celer.bench.http.peer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import io.celer.bench.peer.ProcessCpu;
import io.celer.bench.peer.server.ServerProbe;

/**
 * The probe of a server whose requests run on many threads: the bytes every thread allocated.
 *
 * <p>On JDK 21+ the JVM's own total ({@code getTotalThreadAllocatedMemory}, found reflectively since the build
 * targets 17) counts every thread, virtual threads' carriers and threads since ended included. Before, the
 * total is the live threads' sum plus what each ended connection thread reported with {@link #retire()}; a
 * thread that retires while the total is summed may be counted twice, a rare over-count of one thread.
 */
public final class ThreadsProbe implements ServerProbe
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();
    private static final MethodHandle TOTAL = totalAllocated();

    private final LongAdder retired = new LongAdder();
    private final LongAdder messages = new LongAdder();
    private long beginMessages;
    private long beginNanos;
    private long beginGc;
    private long beginAllocated;
    private ProcessCpu beginCpu;

    /**
     * A probe of the whole process.
     */
    public ThreadsProbe()
    {
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    /**
     * Counts one message (request) served, from any thread.
     */
    public void served()
    {
        messages.increment();
    }

    /**
     * Records what the calling thread allocated, as it ends; call last on threads that end mid-run.
     */
    public void retire()
    {
        if (TOTAL == null)
        {
            retired.add(THREADS.getCurrentThreadAllocatedBytes());
        }
    }

    @Override
    public synchronized void begin()
    {
        beginMessages = messages.sum();
        beginNanos = System.nanoTime();
        beginGc = gcCount();
        beginAllocated = allocated();
        beginCpu = ProcessCpu.now();
    }

    @Override
    public synchronized String statsLine()
    {
        final long allocated = allocated() - beginAllocated;
        final long nanos = System.nanoTime() - beginNanos;
        final ProcessCpu cpu = ProcessCpu.now();
        return "stats side=server gc=" + (gcCount() - beginGc) + " allocated=" + allocated +
            " messages=" + (messages.sum() - beginMessages) + " jdk=" + System.getProperty("java.runtime.version") +
            " nanos=" + nanos + " scope=all-threads" + (cpu == null ? "" : cpu.since(beginCpu));
    }

    private long allocated()
    {
        if (TOTAL != null)
        {
            try
            {
                return (long)TOTAL.invokeExact(THREADS);
            }
            catch (final Throwable ex)
            {
                throw new IllegalStateException("getTotalThreadAllocatedMemory failed", ex);
            }
        }
        long sum = retired.sum();
        for (final long bytes : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds()))
        {
            sum += Math.max(0, bytes);
        }
        return sum;
    }

    private static long gcCount()
    {
        long count = 0;
        for (final GarbageCollectorMXBean collector : COLLECTORS)
        {
            count += Math.max(0, collector.getCollectionCount());
        }
        return count;
    }

    private static MethodHandle totalAllocated()
    {
        try
        {
            return MethodHandles.publicLookup().findVirtual(com.sun.management.ThreadMXBean.class,
                "getTotalThreadAllocatedMemory", MethodType.methodType(long.class))
                .asType(MethodType.methodType(long.class, com.sun.management.ThreadMXBean.class));
        }
        catch (final NoSuchMethodException | IllegalAccessException ex)
        {
            return null;
        }
    }
}
