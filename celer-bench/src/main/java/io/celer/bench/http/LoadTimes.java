package io.celer.bench.http;

import picocli.CommandLine.Option;

/**
 * The warm-up and measured times of the benchmarks that load each setting for a while ({@code bench http},
 * {@code bench plaintext}, {@code bench json}), as a picocli mixin.
 */
public final class LoadTimes
{
    @Option(names = "--warmup-seconds", paramLabel = "S", description = "Unmeasured seconds before each measure "
        + "(default: 5; 2 with --quick).")
    private Integer warmupSeconds;

    @Option(names = "--seconds", paramLabel = "S", description = "Measured seconds (default: 10; 3 with --quick).")
    private Integer seconds;

    /**
     * Unmeasured seconds before each measure.
     *
     * @param options tells a quick run.
     * @return as given, or 2 with {@code --quick} and 5 without.
     * @throws IllegalArgumentException if negative.
     */
    public int warmupSeconds(final HttpOptions options)
    {
        final int warm = options.pick(warmupSeconds, 2, 5);
        if (warm < 0)
        {
            throw new IllegalArgumentException("--warmup-seconds must not be negative: " + warm);
        }
        return warm;
    }

    /**
     * Measured seconds.
     *
     * @param options tells a quick run.
     * @return as given, or 3 with {@code --quick} and 10 without.
     * @throws IllegalArgumentException if not positive.
     */
    public int seconds(final HttpOptions options)
    {
        final int measured = options.pick(seconds, 3, 10);
        if (measured < 1)
        {
            throw new IllegalArgumentException("--seconds must be positive: " + measured);
        }
        return measured;
    }
}
