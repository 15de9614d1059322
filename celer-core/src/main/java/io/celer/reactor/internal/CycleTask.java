package io.celer.reactor.internal;

/**
 * Work a reactor runs once at the end of the current cycle, such as flushing written bytes.
 */
@FunctionalInterface
public interface CycleTask
{
    /**
     * Runs at the end of the cycle in which it was queued; runs on the reactor thread.
     */
    void endOfCycle();
}
