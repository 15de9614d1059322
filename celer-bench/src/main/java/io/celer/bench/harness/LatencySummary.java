package io.celer.bench.harness;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The numbers reported for one histogram of round trips, all in nanoseconds.
 *
 * @param count   round trips recorded.
 * @param avg     mean.
 * @param min     smallest.
 * @param p50     median.
 * @param p90     90th percentile.
 * @param p99     99th percentile.
 * @param p999    99.9th percentile.
 * @param p9999   99.99th percentile.
 * @param p99999  99.999th percentile.
 * @param max     largest.
 * @param tiers   the CoralReactor-vs-Netty benchmark's table: for each percentile, the mean and the largest of the values up to it.
 */
public record LatencySummary(long count, double avg, long min, long p50, long p90, long p99, long p999, long p9999,
    long p99999, long max, List<Tier> tiers)
{
    /** Percentiles of the CoralReactor-vs-Netty benchmark's table. */
    public static final double[] TIER_PERCENTILES = {75, 90, 99, 99.9, 99.99, 99.999};

    /**
     * One row of the CoralReactor-vs-Netty benchmark's table.
     *
     * @param percentile such as 99.9.
     * @param avg        mean of the values at or below that percentile.
     * @param max        the value at that percentile.
     */
    public record Tier(double percentile, double avg, long max)
    {
    }

    /**
     * Summarizes a histogram.
     *
     * @param histogram round trips in nanoseconds, not empty.
     * @return the summary.
     */
    public static LatencySummary of(final Histogram histogram)
    {
        final List<Tier> tiers = new ArrayList<>();
        for (final double percentile : TIER_PERCENTILES)
        {
            tiers.add(tier(histogram, percentile));
        }
        return new LatencySummary(histogram.getTotalCount(), histogram.getMean(), histogram.getMinValue(),
            histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
            histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9),
            histogram.getValueAtPercentile(99.99), histogram.getValueAtPercentile(99.999),
            histogram.getMaxValue(), List.copyOf(tiers));
    }

    private static Tier tier(final Histogram histogram, final double percentile)
    {
        // The lowest ceil(count * p) values, the last bucket taken only in part.
        final long wanted = Math.max(1, (long)Math.ceil(histogram.getTotalCount() * percentile / 100.0));
        long taken = 0;
        double sum = 0;
        for (final HistogramIterationValue bucket : histogram.recordedValues())
        {
            final long take = Math.min(bucket.getCountAtValueIteratedTo(), wanted - taken);
            sum += (double)take * histogram.medianEquivalentValue(bucket.getValueIteratedTo());
            taken += take;
            if (taken == wanted)
            {
                break;
            }
        }
        return new Tier(percentile, sum / taken, histogram.getValueAtPercentile(percentile));
    }
}
