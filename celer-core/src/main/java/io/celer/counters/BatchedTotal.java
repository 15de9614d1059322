package io.celer.counters;

/**
 * A total counted in a plain field on its owner's thread and added to the counters file only when the owner
 * flushes its {@link CounterScope}: for the counts a reactor makes on every message (bytes, messages, cycles),
 * where an ordered store into the mapped file per event is a measurable share of a busy-polled round trip.
 * Readers see it late by at most one flush; a reactor flushes before it waits and every thousand cycles or so.
 */
public final class BatchedTotal
{
    private final Counter counter;
    private long pending;

    BatchedTotal(final Counter counter)
    {
        this.counter = counter;
    }

    /**
     * Adds one; on the owning thread only.
     */
    public void increment()
    {
        if (Counters.ENABLED)
        {
            pending++;
        }
    }

    /**
     * Adds an amount; on the owning thread only.
     *
     * @param amount what to add.
     */
    public void add(final long amount)
    {
        if (Counters.ENABLED)
        {
            pending += amount;
        }
    }

    /**
     * Writes what was counted since the last flush to the file; on the owning thread only.
     */
    void flush()
    {
        if (pending != 0)
        {
            counter.add(pending);
            pending = 0;
        }
    }
}
