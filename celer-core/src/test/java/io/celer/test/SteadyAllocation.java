package io.celer.test;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;


/**
 * Measures what a thread, or several together, allocate over windows of work once the JIT has finished compiling
 * that work.
 *
 * <p>A warm-up counted in requests is not enough on a loaded machine: the compiler threads lag, and the hot path
 * is still being compiled while the measured windows run. The first calls into newly installed compiled code
 * allocate a few objects on the calling thread, once (a few hundred bytes; seen on JDK 17 and 25 alike), and a
 * deoptimisation re-creates the objects compiled code had kept in registers, once. So the warm-up goes on, a
 * window at a time, until a window passes in which the JIT compiled nothing; then up to {@link #MEASURED} windows
 * are measured, stopping at the first that allocated nothing. Garbage made per request shows in every window.
 *
 * <p>The warm-up's windows are counted too, and a warm-up window that allocated nothing ends it: the steady state
 * is shown, whatever else the JIT is compiling. That matters where the JIT is never quiet for long, as when the
 * stall log of a loaded machine keeps compiling its own code: there every warm-up ran all its windows.
 */
public final class SteadyAllocation
{
    /** Windows measured at most. */
    public static final int MEASURED = 3;
    private static final int MAX_SETTLING = 20;
    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    /** One window of work, whose allocations on the measured thread are counted. */
    @FunctionalInterface
    public interface Window
    {
        /**
         * Does the window's work and returns when it is done.
         *
         * @throws Exception when the work fails.
         */
        void run() throws Exception;
    }

    private SteadyAllocation()
    {
    }

    /**
     * Runs windows until the JIT is quiet, then measures.
     *
     * @param thread the thread whose allocations count, alive throughout.
     * @param window the work of one window.
     * @return bytes the thread allocated in each measured window, or in each warm-up window when one of those
     *     allocated nothing; the last is 0 when a steady state was reached.
     * @throws Exception when the work fails.
     */
    public static List<Long> perWindow(final Thread thread, final Window window) throws Exception
    {
        return perWindow(List.of(thread), window);
    }

    /**
     * Runs windows until the JIT is quiet, then measures what several threads allocate together: the two ends
     * of a round trip, or a producer and its consumer.
     *
     * @param threads the threads whose allocations count, alive throughout; the calling thread may be one.
     * @param window  the work of one window.
     * @return bytes the threads allocated together in each measured window, or in each warm-up window when one of
     *     those allocated nothing; the last is 0 when a steady state was reached.
     * @throws Exception when the work fails.
     */
    public static List<Long> perWindow(final List<Thread> threads, final Window window) throws Exception
    {
        // An array, read by index: the calling thread may be measured, and an iterator would count against it.
        final Thread[] measured = threads.toArray(new Thread[0]);
        final List<Long> settling = new ArrayList<>(MAX_SETTLING);
        if (settle(measured, window, settling))
        {
            return settling;
        }
        final List<Long> bytes = new ArrayList<>(MEASURED);
        for (int i = 0; i < MEASURED && (bytes.isEmpty() || bytes.get(bytes.size() - 1) != 0); i++)
        {
            final long before = allocatedBytes(measured);
            window.run();
            final long after = allocatedBytes(measured);
            bytes.add(after - before);
        }
        return bytes;
    }

    /**
     * Runs windows until one passes in which the JIT compiled nothing, twenty at most: then the code the windows run
     * is compiled and installed, and measuring can start.
     *
     * @param window the work of one window.
     * @throws Exception when the work fails.
     */
    public static void untilTheJitIsQuiet(final Window window) throws Exception
    {
        settle(null, window, null);
    }

    /**
     * Runs windows until the JIT is quiet, counting what the measured threads allocated in each when there are any.
     *
     * @param measured the threads to count, or null for none.
     * @param bytes    receives each window's count when counting.
     * @return true when a window allocated nothing: then {@code bytes} holds every window's count, the last 0.
     */
    private static boolean settle(final Thread[] measured, final Window window, final List<Long> bytes)
        throws Exception
    {
        if (JIT == null || !JIT.isCompilationTimeMonitoringSupported())
        {
            return false;
        }
        long compiled = JIT.getTotalCompilationTime();
        for (int i = 0; i < MAX_SETTLING; i++)
        {
            final long before = measured == null ? 0 : allocatedBytes(measured);
            window.run();
            if (measured != null)
            {
                final long allocated = allocatedBytes(measured) - before;
                bytes.add(allocated);
                if (allocated == 0)
                {
                    return true;
                }
            }
            final long now = JIT.getTotalCompilationTime();
            if (now == compiled)
            {
                return false;
            }
            compiled = now;
        }
        return false;
    }

    private static long allocatedBytes(final Thread[] threads)
    {
        long sum = 0;
        for (int i = 0; i < threads.length; i++)
        {
            sum += Allocations.allocatedBytes(threads[i]);
        }
        return sum;
    }
}
