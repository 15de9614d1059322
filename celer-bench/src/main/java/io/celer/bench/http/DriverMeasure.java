package io.celer.bench.http;

import java.time.Duration;
import java.util.List;
import java.util.function.LongConsumer;

import io.celer.bench.harness.CommandedChild;
import io.celer.bench.harness.SideStats;

/**
 * One measure of a server by a Celer driver run as a child: the driver warms up and says {@code measuring}, the
 * server is told to begin, the driver runs to its end within a bound, then both sides' stats are read.
 */
public final class DriverMeasure
{
    private DriverMeasure()
    {
    }

    /**
     * What a benchmark makes of a measure that ended well.
     *
     * @param <T> its point's type.
     */
    @FunctionalInterface
    public interface Reading<T>
    {
        /**
         * Reads a finished measure.
         *
         * @param client      the driver, ended with status 0; its {@link CommandedChild#failure} for a bad result.
         * @param clientStats what the driver printed at its end.
         * @param serverStats what the server printed since {@code begin}.
         * @return the point.
         */
        T read(CommandedChild client, SideStats clientStats, SideStats serverStats);
    }

    /**
     * Runs a driver to its end against a started server.
     *
     * @param server         the server, already serving.
     * @param name           the driver's name in messages.
     * @param command        starts the driver.
     * @param untilMeasuring the most the driver may take to connect and warm up.
     * @param untilDone      the most the driver may take from its start to its end.
     * @param progress       milliseconds since the driver's start, told every 200 ms.
     * @param reading        makes the point of the measure.
     * @param <T>            the point's type.
     * @return the point.
     * @throws io.celer.bench.harness.BenchException if the driver does not say {@code measuring} or finish in
     *                                               time, or exits with a non-zero status.
     */
    public static <T> T run(final CommandedChild server, final String name, final List<String> command,
        final Duration untilMeasuring, final Duration untilDone, final LongConsumer progress,
        final Reading<T> reading)
    {
        final long start = System.nanoTime();
        try (CommandedChild client = CommandedChild.start(name, command))
        {
            client.awaitLine("'measuring' line", "measuring"::equals, untilMeasuring);
            server.begin();
            final long limit = untilDone.toNanos();
            while (!client.waitFor(Duration.ofMillis(200)))
            {
                progress.accept((System.nanoTime() - start) / 1_000_000);
                if (System.nanoTime() - start > limit)
                {
                    throw client.failure("did not finish within " + limit / 1_000_000_000 + " s");
                }
            }
            final SideStats clientStats = client.awaitStats();
            final SideStats serverStats = server.stats();
            if (client.exitValue() != 0)
            {
                throw client.failure("exited with status " + client.exitValue());
            }
            return reading.read(client, clientStats, serverStats);
        }
    }
}
