package io.celer.counters;

import java.nio.ByteBuffer;

import static io.celer.counters.CountersLayout.LONG;

/**
 * Nanoseconds counted in fixed, log-sized buckets in the counters file: four buckets per power of two (each
 * within 25 % of its neighbour), up to about 2,200 s; written by one thread with ordered stores, without
 * allocating. {@link HistogramSnapshot} reads percentiles from it.
 */
public final class LatencyHistogram
{
    static final int COUNT = 0;
    static final int SUM = 1;
    static final int MAX = 2;
    static final int FIRST_BUCKET = 3;
    /** Values 0 to 3 have a bucket each, then four per power of two up to 2^41 ns. */
    static final int BUCKETS = 164;
    static final int LONGS = FIRST_BUCKET + BUCKETS;
    static final int SLOTS = (LONGS * 8 + CountersLayout.VALUE_LENGTH - 1) / CountersLayout.VALUE_LENGTH;

    private final ByteBuffer buffer;
    private final int offset;

    LatencyHistogram(final ByteBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
    }

    /**
     * Counts one value; on the owning thread only.
     *
     * @param nanos the value, negatives counted as 0.
     */
    public void record(final long nanos)
    {
        if (Counters.ENABLED)
        {
            final long value = Math.max(0, nanos);
            bump(COUNT, 1);
            bump(SUM, value);
            final int maxAt = offset + MAX * 8;
            if (value > (long)LONG.get(buffer, maxAt))
            {
                LONG.setRelease(buffer, maxAt, value);
            }
            bump(FIRST_BUCKET + bucket(value), 1);
        }
    }

    private void bump(final int index, final long amount)
    {
        final int at = offset + index * 8;
        LONG.setRelease(buffer, at, (long)LONG.get(buffer, at) + amount);
    }

    /**
     * The bucket of a value.
     *
     * @param value nanoseconds, not negative.
     * @return its bucket's index.
     */
    static int bucket(final long value)
    {
        if (value < 4)
        {
            return (int)value;
        }
        final int msb = 63 - Long.numberOfLeadingZeros(value);
        if (msb > 41)
        {
            return BUCKETS - 1;
        }
        final int sub = (int)(value >>> (msb - 2)) & 3;
        return (msb - 1) * 4 + sub;
    }

    /**
     * The largest value a bucket holds.
     *
     * @param bucket a bucket's index.
     * @return its upper bound, inclusive.
     */
    static long upperBound(final int bucket)
    {
        if (bucket < 4)
        {
            return bucket;
        }
        final int msb = bucket / 4 + 1;
        final int sub = bucket % 4;
        return ((5L + sub) << (msb - 2)) - 1;
    }
}
