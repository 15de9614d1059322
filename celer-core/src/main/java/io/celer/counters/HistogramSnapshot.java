package io.celer.counters;

/**
 * A {@link LatencyHistogram} as read at one moment: its count, sum, maximum and buckets, and the percentiles
 * they give (each a bucket's upper bound, so within 25 % above the true value).
 */
public final class HistogramSnapshot
{
    private final long[] values;

    HistogramSnapshot(final long[] values)
    {
        this.values = values;
    }

    /**
     * How many values were recorded.
     *
     * @return the count.
     */
    public long count()
    {
        return values[LatencyHistogram.COUNT];
    }

    /**
     * The sum of the values recorded.
     *
     * @return nanoseconds.
     */
    public long sum()
    {
        return values[LatencyHistogram.SUM];
    }

    /**
     * The largest value recorded.
     *
     * @return nanoseconds.
     */
    public long max()
    {
        return values[LatencyHistogram.MAX];
    }

    /**
     * How many values fell at or below a bound, for the cumulative buckets of OpenMetrics.
     *
     * @param bucket a bucket index, 0 to {@link #buckets()} - 1.
     * @return the values in this bucket.
     */
    public long bucketCount(final int bucket)
    {
        return values[LatencyHistogram.FIRST_BUCKET + bucket];
    }

    /**
     * The largest value a bucket holds.
     *
     * @param bucket a bucket index.
     * @return nanoseconds, inclusive.
     */
    public long bucketUpperBound(final int bucket)
    {
        return LatencyHistogram.upperBound(bucket);
    }

    /**
     * The number of buckets.
     *
     * @return the buckets.
     */
    public int buckets()
    {
        return LatencyHistogram.BUCKETS;
    }

    /**
     * The value at a percentile: the upper bound of the bucket it falls in, never above the maximum.
     *
     * @param percentile 0 to 100.
     * @return nanoseconds, or 0 with no values.
     */
    public long percentile(final double percentile)
    {
        long total = 0;
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++)
        {
            total += bucketCount(i);
        }
        if (total == 0)
        {
            return 0;
        }
        final long rank = Math.max(1, (long)Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < LatencyHistogram.BUCKETS; i++)
        {
            seen += bucketCount(i);
            if (seen >= rank)
            {
                return Math.min(LatencyHistogram.upperBound(i), max());
            }
        }
        return max();
    }
}
