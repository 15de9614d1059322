package io.celer.bench.peer.server;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.celer.bench.peer.IoThreadProbe;
import io.celer.bench.peer.ProcessCpu;

/**
 * The probe of a server with one event loop or several: each loop's own allocation and counts, read on the loop
 * itself and summed, as the other peers' {@link IoThreadProbe} does for one thread; collections and CPU time are
 * the process's.
 *
 * <p>Its stats line has the sums ({@code messages=}, and one per {@link Loop#count count}) and each loop's figures
 * in the loops' order ({@code loops=2 loop_messages=120,98}), so that no loop shares a counter with another.
 */
public final class LoopProbe implements ServerProbe
{
    private static final long WAIT_SECONDS = 10;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private final List<Loop> loops;
    private long beginNanos;
    private long beginGc;
    private ProcessCpu beginCpu;

    /**
     * One event loop of a server: where its tasks run and what it counts, each read on its thread.
     */
    public static final class Loop
    {
        private final Executor executor;
        private final LongSupplier messages;
        private final Map<String, LongSupplier> counts = new LinkedHashMap<>();
        private Runnable onBegin = () ->
        {
        };
        private long beginMessages;
        private long beginAllocated;

        /**
         * A loop.
         *
         * @param executor runs a task on the loop's thread.
         * @param messages the loop's count of what it served so far.
         */
        public Loop(final Executor executor, final LongSupplier messages)
        {
            this.executor = executor;
            this.messages = messages;
        }

        /**
         * Marks the server's own counts of this loop as the measure begins.
         *
         * @param mark run on the loop.
         * @return this.
         */
        public Loop onBegin(final Runnable mark)
        {
            this.onBegin = mark;
            return this;
        }

        /**
         * Another figure of this loop for the stats line, read after the measure: {@code name=} the sum over the
         * loops, {@code loop_name=} each loop's.
         *
         * @param name  such as {@code dropped}.
         * @param value read on the loop.
         * @return this.
         */
        public Loop count(final String name, final LongSupplier value)
        {
            counts.put(name, value);
            return this;
        }

        private String begin()
        {
            onBegin.run();
            beginMessages = messages.getAsLong();
            // Read last, so what the marks allocated is not charged to the run.
            beginAllocated = THREADS.getCurrentThreadAllocatedBytes();
            return "";
        }

        private long[] end()
        {
            final long allocated = THREADS.getCurrentThreadAllocatedBytes() - beginAllocated;
            final long[] figures = new long[2 + counts.size()];
            figures[0] = allocated;
            figures[1] = messages.getAsLong() - beginMessages;
            int i = 2;
            for (final LongSupplier count : counts.values())
            {
                figures[i++] = count.getAsLong();
            }
            return figures;
        }
    }

    /**
     * A probe of one loop.
     *
     * @param loop runs a task on the event loop thread.
     * @param messages the loop's count of what it served, read on the loop.
     */
    public LoopProbe(final Executor loop, final LongSupplier messages)
    {
        this(List.of(new Loop(loop, messages)));
    }

    /**
     * A probe of a server's loops.
     *
     * @param loops every loop, at least one, in the order their figures are listed.
     */
    public LoopProbe(final List<Loop> loops)
    {
        if (loops.isEmpty())
        {
            throw new IllegalArgumentException("a server has at least one loop");
        }
        this.loops = List.copyOf(loops);
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    @Override
    public synchronized void begin()
    {
        beginCpu = ProcessCpu.now();
        beginGc = IoThreadProbe.gcCount();
        beginNanos = System.nanoTime();
        for (final Loop loop : loops)
        {
            onLoop(loop, loop::begin);
        }
    }

    @Override
    public synchronized String statsLine()
    {
        final List<long[]> figures = new ArrayList<>();
        for (final Loop loop : loops)
        {
            final long[] one = onLoop(loop, loop::end);
            if (one == null)
            {
                // A stopped or stuck loop: the harness sees the missing figures rather than a hang.
                return "stats missing: loop " + figures.size() + " did not answer within " + WAIT_SECONDS + " s";
            }
            figures.add(one);
        }
        final long nanos = System.nanoTime() - beginNanos;
        final ProcessCpu cpu = ProcessCpu.now();
        final StringBuilder line = new StringBuilder("stats side=server gc=")
            .append(IoThreadProbe.gcCount() - beginGc)
            .append(" allocated=").append(sum(figures, 0))
            .append(" messages=").append(sum(figures, 1))
            .append(" jdk=").append(System.getProperty("java.runtime.version"))
            .append(cpu == null ? "" : cpu.since(beginCpu))
            .append(" nanos=").append(nanos)
            .append(" scope=io-thread loops=").append(loops.size());
        append(line, "messages", figures, 1);
        int index = 2;
        for (final String name : loops.get(0).counts.keySet())
        {
            line.append(' ').append(name).append('=').append(sum(figures, index));
            append(line, name, figures, index++);
        }
        return line.toString();
    }

    private static long sum(final List<long[]> figures, final int index)
    {
        long sum = 0;
        for (final long[] one : figures)
        {
            sum += one[index];
        }
        return sum;
    }

    private static void append(final StringBuilder line, final String name, final List<long[]> figures,
        final int index)
    {
        line.append(" loop_").append(name).append('=');
        for (int i = 0; i < figures.size(); i++)
        {
            line.append(i == 0 ? "" : ",").append(figures.get(i)[index]);
        }
    }

    private static <T> T onLoop(final Loop loop, final Supplier<T> task)
    {
        final CompletableFuture<T> result = new CompletableFuture<>();
        try
        {
            loop.executor.execute(() -> result.complete(task.get()));
            return result.get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            return null;
        }
    }
}
