package io.celer.counters;

/**
 * What a counter's value means, stored as its type id so that a reader can present it.
 */
public enum CounterType
{
    /** Only grows: events or amounts since the counter was made; a reader shows its rate. */
    TOTAL(1),
    /** Goes up and down, or holds a high-water mark: a level, shown as is. */
    GAUGE(2),
    /** A {@link LatencyHistogram}: counts in log-sized buckets of nanoseconds. */
    HISTOGRAM(3);

    private final int id;

    CounterType(final int id)
    {
        this.id = id;
    }

    /**
     * The id stored in the file.
     *
     * @return the type id.
     */
    public int id()
    {
        return id;
    }

    /**
     * The type with a stored id.
     *
     * @param id a type id.
     * @return the type, or null for an id this version does not know.
     */
    public static CounterType ofId(final int id)
    {
        for (final CounterType type : values())
        {
            if (type.id == id)
            {
                return type;
            }
        }
        return null;
    }
}
