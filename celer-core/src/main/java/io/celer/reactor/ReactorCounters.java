package io.celer.reactor;

import io.celer.counters.Counter;
import io.celer.counters.CounterScope;

/**
 * A reactor's own counters: its cycles and where their time went, stalls, timers and callbacks. Written on the
 * reactor thread but for the refusals, which producers count.
 */
final class ReactorCounters
{
    final Counter cycles;
    final Counter workNanos;
    final Counter idleNanos;
    final Counter maxCycleNanos;
    final Counter stalls;
    final Counter timersFired;
    final Counter callbacksRun;
    final Counter callbackDepth;
    final Counter callbacksRefused;
    /** Idle cycles summed before they are written: a few microseconds of spinning. */
    static final int IDLE_CYCLES_PER_WRITE = 1024;

    private final long stallThresholdNanos;
    private long pendingIdleCycles;
    private long pendingIdleNanos;

    ReactorCounters(final CounterScope scope, final long stallThresholdNanos)
    {
        this.cycles = scope.total("reactor.cycles", "");
        this.workNanos = scope.total("reactor.work.nanos", "");
        this.idleNanos = scope.total("reactor.idle.nanos", "");
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
     * past the threshold; one that found none adds to the idle time. Idle cycles are summed in plain fields and
     * written to the file with the next busy cycle, before a wait, or every {@link #IDLE_CYCLES_PER_WRITE}: a
     * spinning reactor runs millions of them a second, and stores into the mapped file on each would cost a
     * busy-polled round trip about 4 %.
     *
     * @return whether it was a stall.
     */
    boolean cycle(final int work, final long nanos)
    {
        if (work == 0)
        {
            pendingIdleNanos += nanos;
            if (++pendingIdleCycles == IDLE_CYCLES_PER_WRITE)
            {
                writeIdle();
            }
            return false;
        }
        writeIdle();
        cycles.increment();
        workNanos.add(nanos);
        maxCycleNanos.max(nanos);
        if (nanos > stallThresholdNanos)
        {
            stalls.increment();
            return true;
        }
        return false;
    }

    /**
     * Adds time spent waiting (in the selector, parked) to the idle time, with the idle cycles not yet written.
     *
     * @param nanos the wait.
     */
    void waited(final long nanos)
    {
        pendingIdleNanos += nanos;
        writeIdle();
    }

    private void writeIdle()
    {
        if (pendingIdleCycles != 0 || pendingIdleNanos != 0)
        {
            cycles.add(pendingIdleCycles);
            idleNanos.add(pendingIdleNanos);
            pendingIdleCycles = 0;
            pendingIdleNanos = 0;
        }
    }
}
