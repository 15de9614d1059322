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
    private final long stallThresholdNanos;

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
     * past the threshold; one that found none adds to the idle time.
     *
     * @return whether it was a stall.
     */
    boolean cycle(final int work, final long nanos)
    {
        cycles.increment();
        if (work == 0)
        {
            idleNanos.add(nanos);
            return false;
        }
        workNanos.add(nanos);
        maxCycleNanos.max(nanos);
        if (nanos > stallThresholdNanos)
        {
            stalls.increment();
            return true;
        }
        return false;
    }
}
