package io.celer.bench.peer;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Counts collections, the bytes the I/O thread allocates and the process's CPU time between two points of a run.
 *
 * <p>{@link #begin()} and {@link #end(long)} run on the I/O thread itself, so the counter read is the thread's
 * own and needs no thread id.
 */
public final class IoThreadProbe
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();

    private final String side;
    private long gcAtBegin;
    private long gcAtEnd;
    private long allocatedAtBegin;
    private long allocatedAtEnd;
    private long messages;
    private ProcessCpu cpuAtBegin;
    private ProcessCpu cpuAtEnd;

    /**
     * A probe for one side of a run.
     *
     * @param side "client" or "server", as reported.
     */
    public IoThreadProbe(final String side)
    {
        this.side = side;
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    /**
     * Marks the start of the measured phase; call on the I/O thread.
     */
    public void begin()
    {
        cpuAtBegin = ProcessCpu.now();
        gcAtBegin = gcCount();
        // Read last, so what the collector count allocated is not charged to the run.
        allocatedAtBegin = THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * Marks the end of the measured phase; call on the I/O thread.
     *
     * @param measuredMessages messages handled between begin and end.
     */
    public void end(final long measuredMessages)
    {
        allocatedAtEnd = THREADS.getCurrentThreadAllocatedBytes();
        gcAtEnd = gcCount();
        // Read after the allocation count: reading the file allocates.
        cpuAtEnd = ProcessCpu.now();
        messages = measuredMessages;
    }

    /**
     * The line the harness parses from the child's stdout.
     *
     * @return {@code stats side=... gc=... allocated=... messages=... jdk=...}, then the process's
     *         {@code cpu_user_ms} and {@code cpu_sys_ms} where the platform tells them.
     */
    public String statsLine()
    {
        return "stats side=" + side + " gc=" + (gcAtEnd - gcAtBegin) + " allocated=" +
            (allocatedAtEnd - allocatedAtBegin) + " messages=" + messages + " jdk=" +
            System.getProperty("java.runtime.version") + (cpuAtEnd == null ? "" : cpuAtEnd.since(cpuAtBegin));
    }

    /**
     * The stats line with the side's own measured time, for throughput runs.
     *
     * @param nanos the measured phase's length.
     * @return the line.
     */
    public String statsLine(final long nanos)
    {
        return statsLine() + " nanos=" + nanos;
    }

    /**
     * Collections so far, every collector of this JVM together.
     *
     * @return the count.
     */
    public static long gcCount()
    {
        long count = 0;
        for (int i = 0; i < COLLECTORS.size(); i++)
        {
            count += Math.max(0, COLLECTORS.get(i).getCollectionCount());
        }
        return count;
    }
}
