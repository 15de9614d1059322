package io.celer.reactor;

import io.celer.counters.BatchedTotal;
import io.celer.counters.Counter;
import io.celer.counters.CounterScope;

/**
 * A reactor's own counters: its cycles and where their time went, stalls, timers and callbacks. Written on the
 * reactor thread but for the refusals, which producers count.
 */
final class ReactorCounters
{
    /**
     * Cycles counted in plain fields before the scope's batched totals are written: a busy-polled reactor runs
     * millions of cycles a second, and stores into the mapped file on each, with those of every message, cost a
     * busy-polled round trip a few per cent. At a few hundred nanoseconds a cycle this is well under a millisecond.
     */
    static final int CYCLES_PER_WRITE = 1024;

    final BatchedTotal cycles;
    final BatchedTotal workNanos;
    final BatchedTotal idleNanos;
    final Counter maxCycleNanos;
    final Counter stalls;
    final Counter timersFired;
    final Counter callbacksRun;
    final Counter callbackDepth;
    final Counter callbacksRefused;

    private final CounterScope scope;
    private final long stallThresholdNanos;
    private int cyclesToWrite = CYCLES_PER_WRITE;
    private long longestCycleNanos;

    ReactorCounters(final CounterScope scope, final long stallThresholdNanos)
    {
        this.scope = scope;
        this.cycles = scope.batchedTotal("reactor.cycles", "");
        this.workNanos = scope.batchedTotal("reactor.work.nanos", "");
        this.idleNanos = scope.batchedTotal("reactor.idle.nanos", "");
        this.maxCycleNanos = scope.gauge("reactor.cycle.max.nanos", "");
        this.stalls = scope.total("reactor.stalls", "");
        this.timersFired = scope.total("reactor.timers.fired", "");
        this.callbacksRun = scope.total("reactor.callbacks.run", "");
        this.callbackDepth = scope.gauge("reactor.callbacks.depth", "");
        this.callbacksRefused = scope.total("reactor.callbacks.refused", "");
        this.stallThresholdNanos = stallThresholdNanos;
    }

    /**
     * Counts a cycle: one that found work adds to the work time, may raise the longest cycle, and is a stall
     * past the threshold; one that found none adds to the idle time. Every {@link #CYCLES_PER_WRITE} cycles the
     * scope's batched totals (these and the layers' per-message ones) are written to the file.
     *
     * @return whether it was a stall.
     */
    boolean cycle(final int work, final long nanos)
    {
        cycles.increment();
        boolean stalled = false;
        if (work == 0)
        {
            idleNanos.add(nanos);
        }
        else
        {
            workNanos.add(nanos);
            if (nanos > longestCycleNanos)
            {
                longestCycleNanos = nanos;
            }
            if (nanos > stallThresholdNanos)
            {
                stalls.increment();
                stalled = true;
            }
        }
        if (--cyclesToWrite == 0)
        {
            write();
        }
        return stalled;
    }

    /**
     * Adds time spent waiting (in the selector, parked) to the idle time; the caller writes before it waits,
     * so that a reader sees an idle reactor's counts whole.
     *
     * @param nanos the wait.
     */
    void waited(final long nanos)
    {
        idleNanos.add(nanos);
    }

    /**
     * Writes what was counted in plain fields: before a wait, every {@link #CYCLES_PER_WRITE} cycles, at stop.
     */
    void write()
    {
        cyclesToWrite = CYCLES_PER_WRITE;
        if (longestCycleNanos != 0)
        {
            maxCycleNanos.max(longestCycleNanos);
            longestCycleNanos = 0;
        }
        scope.flush();
    }
}
