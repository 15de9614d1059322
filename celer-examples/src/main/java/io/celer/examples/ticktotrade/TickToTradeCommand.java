package io.celer.examples.ticktotrade;

import java.io.IOException;
import java.util.concurrent.Callable;

import io.celer.examples.cli.DemoContext;
import io.celer.examples.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./celer demo tick-to-trade}: runs {@link TickToTrade} on its own reactors and prints what it
 * measured; it ends by itself.
 */
@Command(
    name = "tick-to-trade",
    description = "quotes by UDP multicast on loopback, an order by TCP for each; warms up, measures " +
        "--quotes spaced quotes, prints percentiles")
public final class TickToTradeCommand implements Callable<Integer>
{
    @Option(names = "--quotes", paramLabel = "N", defaultValue = "10000",
        description = "Spaced quotes to measure (default ${DEFAULT-VALUE}).")
    private long quotes;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1000000",
        description = "Quotes to warm up with (default ${DEFAULT-VALUE}).")
    private long warmUp;

    @Option(names = "--spacing-us", paramLabel = "N", defaultValue = "100",
        description = "Microseconds between measured quotes (default ${DEFAULT-VALUE}).")
    private long spacingMicros;

    private final DemoContext context;

    /**
     * A command that prints to the context.
     *
     * @param context where it prints.
     */
    public TickToTradeCommand(final DemoContext context)
    {
        this.context = context;
    }

    /**
     * Measures and prints the percentiles.
     *
     * @return the exit code: 0.
     * @throws IOException if the quote generator's socket fails.
     */
    @Override
    public Integer call() throws IOException
    {
        if (quotes < 1 || warmUp < 0 || spacingMicros < 0)
        {
            throw new UsageException("--quotes must be at least 1, --warmup and --spacing-us at least 0");
        }
        TickToTrade.print(TickToTrade.run(warmUp, quotes, spacingMicros, context.out()), context.out());
        return 0;
    }
}
