package io.celer.counters;

import java.nio.ByteBuffer;

import static io.celer.counters.CountersLayout.LONG;

/**
 * One counter's value in the counters file, written by one thread (its reactor's) with ordered stores, read
 * by any process; garbage-free. With counters off ({@code -Dceler.counters=off}) every write is skipped.
 */
public final class Counter
{
    private final ByteBuffer buffer;
    private final int offset;

    Counter(final ByteBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
    }

    /**
     * Adds one; on the owning thread only.
     */
    public void increment()
    {
        if (Counters.ENABLED)
        {
            LONG.setRelease(buffer, offset, (long)LONG.get(buffer, offset) + 1L);
        }
    }

    /**
     * Takes one away (a gauge); on the owning thread only.
     */
    public void decrement()
    {
        if (Counters.ENABLED)
        {
            LONG.setRelease(buffer, offset, (long)LONG.get(buffer, offset) - 1L);
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
            LONG.setRelease(buffer, offset, (long)LONG.get(buffer, offset) + amount);
        }
    }

    /**
     * Sets the value (a gauge); on the owning thread only.
     *
     * @param value the new value.
     */
    public void set(final long value)
    {
        if (Counters.ENABLED)
        {
            LONG.setRelease(buffer, offset, value);
        }
    }

    /**
     * Raises the value to at least this (a high-water mark); on the owning thread only.
     *
     * @param value a candidate.
     */
    public void max(final long value)
    {
        if (Counters.ENABLED && value > (long)LONG.get(buffer, offset))
        {
            LONG.setRelease(buffer, offset, value);
        }
    }

    /**
     * Adds one from any thread, atomically: for the rare events that happen off the owning thread (a callback
     * refused by a full queue).
     */
    public void incrementShared()
    {
        if (Counters.ENABLED)
        {
            LONG.getAndAdd(buffer, offset, 1L);
        }
    }

    /**
     * The value, from any thread.
     *
     * @return the last value stored.
     */
    public long get()
    {
        return (long)LONG.getAcquire(buffer, offset);
    }
}
