package io.celer.bench.ticktotrade;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import io.celer.bench.harness.OutputDirectory;

/**
 * {@code bench tick-to-trade}: the tick-to-trade example measured inside the process and on the wire.
 */
@Command(name = "tick-to-trade", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Tick-to-trade of the example strategy: a generator sends quotes by UDP (multicast on the loopback "
            + "interface when it can be switched on, else unicast); the strategy, on one busy-spinning reactor "
            + "thread, answers each with a FIX-style order over TCP to a pseudo exchange. After the warm-up, "
            + "spaced quotes are measured twice: inside the process (quote read to order written) and on the "
            + "wire, with tshark capturing the quote and order frames on the interface they travel (quote frame "
            + "to order frame, matched by quote id).",
        "Without tshark, or when the capture fails, the report says so and gives the in-process numbers only."})
public final class TickToTradeCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--quick", description = "A short run: 100,000 warm-up and 2,000 measured quotes.")
    private boolean quick;

    @Option(names = "--no-wire", description = "Measure inside the process only, without tshark.")
    private boolean noWire;

    @Option(names = "--quotes-warmup", paramLabel = "N", description = "Quotes sent as fast as the strategy "
        + "takes them, not measured (default: 1,000,000; 100,000 with --quick).")
    private Long warmup;

    @Option(names = "--quotes", paramLabel = "N", description = "Spaced quotes measured (default: 10,000; 2,000 "
        + "with --quick).")
    private Long quotes;

    @Option(names = "--spacing-us", paramLabel = "U", description = "Microseconds between measured quotes "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "100")
    private long spacing;

    @Option(names = "--keep-capture", description = "Keep the pcapng capture beside the results, as "
        + "tick-to-trade-STAMP.pcapng.")
    private boolean keepCapture;

    @Mixin
    private OutputDirectory out;

    @Override
    public Integer call()
    {
        final long warm = warmup != null ? warmup : quick ? 100_000 : 1_000_000;
        final long measured = quotes != null ? quotes : quick ? 2_000 : 10_000;
        if (warm < 0 || measured < 1 || measured > 10_000_000 || spacing < 0)
        {
            throw new ParameterException(spec.commandLine(), "--quotes must be 1 to 10,000,000, --quotes-warmup and "
                + "--spacing-us not negative");
        }
        return new TickToTradeRun(new TickToTradeRun.Settings(warm, measured, spacing, !noWire, keepCapture,
            out.path()), System.out, System.err).run();
    }
}
