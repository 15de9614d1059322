package io.celer.bench.ticktotrade;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import io.celer.bench.harness.RunContext;
import io.celer.examples.ticktotrade.MeasurementListener;
import io.celer.examples.ticktotrade.TickToTrade;

/**
 * Runs the tick-to-trade example in this process and measures it twice: inside the process (the example's
 * own histogram, quote read to order written) and on the wire (a tshark capture on the interface the quotes
 * and orders travel, quote frame to order frame).
 */
final class TickToTradeRun implements MeasurementListener
{
    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;
    private RunContext run;
    private String tshark;
    private WireCapture capture;
    private String filter;
    private Path captureFile;
    private MeasurementListener.Phase measured;
    private String wireStatus;
    private String captureSummary;

    /**
     * What to run.
     *
     * @param warmup  quotes before the measured ones.
     * @param quotes  measured quotes.
     * @param spacing microseconds between measured quotes.
     * @param wire    whether to capture on the wire.
     * @param keep    whether to keep the capture file beside the results.
     * @param outDir  the results directory.
     */
    record Settings(long warmup, long quotes, long spacing, boolean wire, boolean keep, Path outDir)
    {
    }

    /**
     * A run.
     *
     * @param settings what to run.
     * @param out      the report.
     * @param err      progress and problems.
     */
    TickToTradeRun(final Settings settings, final PrintStream out, final PrintStream err)
    {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs, prints the table and writes the files.
     *
     * @return the exit code: 0, or 1 when the example failed.
     */
    int run()
    {
        if (settings.wire())
        {
            tshark = WireCapture.version();
            wireStatus = tshark == null ? "not measured: tshark is not installed (the launcher installs it with "
                + "apt-get when run as root)" : null;
        }
        else
        {
            wireStatus = "not measured: --no-wire";
        }
        out.printf("Tick-to-trade: %,d warm-up quotes, then %,d measured %d µs apart; wire capture: %s%n",
            settings.warmup(), settings.quotes(), settings.spacing(), wireStatus == null ? tshark : wireStatus);
        try (RunContext context = RunContext.start(out, err))
        {
            run = context;
            final TickToTrade.Result result;
            try
            {
                result = TickToTrade.run(settings.warmup(), settings.quotes(), settings.spacing(), out, this);
            }
            catch (final IOException | RuntimeException ex)
            {
                err.println("tick-to-trade failed: " + ex);
                return 1;
            }
            finally
            {
                if (capture != null)
                {
                    capture.close();
                }
            }
            final List<TickToTradeReport.Entry> entries = new ArrayList<>();
            entries.add(TickToTradeReport.Entry.of("in-process", "System.nanoTime() when the strategy reads the "
                + "quote to after the order's write to the socket", result.tickToTrade(), settings.quotes()));
            final TickToTradeReport.Capture wire = wireStatus == null ? readCapture(entries) : null;
            final TickToTradeReport json = new TickToTradeReport(result.transport(),
                measured == null ? null : measured.interfaceName(), settings.warmup(), settings.quotes(),
                settings.spacing(), result.lost(), result.malformed(), result.orders(),
                wireStatus == null ? TickToTradeReport.CAPTURED : wireStatus, wire);
            final int status = context.finish(TickToTradeReport.report(json,
                context.result("tick-to-trade", json, entries, null)), settings.outDir());
            keepCapture(context.stem("tick-to-trade", settings.outDir()));
            return status;
        }
    }

    private void keepCapture(final Path stem)
    {
        if (!settings.keep() || captureFile == null || !Files.exists(captureFile))
        {
            return;
        }
        final Path kept = stem.resolveSibling(stem.getFileName() + ".pcapng");
        try
        {
            Files.copy(captureFile, kept, StandardCopyOption.REPLACE_EXISTING);
            out.println("Capture: " + kept);
        }
        catch (final IOException ex)
        {
            err.println("cannot keep the capture: " + ex);
        }
    }

    @Override
    public void beforeMeasuring(final MeasurementListener.Phase phase)
    {
        measured = phase;
        if (wireStatus != null)
        {
            return;
        }
        // Quotes towards the strategy's port, orders towards the exchange's: not the execution reports.
        filter = "(udp and dst port " + phase.quoteTarget().getPort() + ") or (tcp and dst port "
            + phase.exchange().getPort() + ")";
        captureFile = run.work().resolve("tick-to-trade.pcapng");
        err.printf("starting tshark on %s: %s%n", phase.interfaceName(), filter);
        try
        {
            capture = WireCapture.start(phase.interfaceName(), filter, captureFile,
                new InetSocketAddress(phase.quoteSource().getAddress(), 0));
        }
        catch (final IOException | UncheckedIOException ex)
        {
            wireStatus = "not measured: the capture failed: " + ex.getMessage();
            err.println("wire " + wireStatus);
        }
    }

    @Override
    public void afterMeasuring()
    {
        if (capture == null)
        {
            return;
        }
        try
        {
            captureSummary = capture.stop();
        }
        catch (final IOException ex)
        {
            wireStatus = "not measured: " + ex.getMessage();
            err.println("wire " + wireStatus);
        }
    }

    private TickToTradeReport.Capture readCapture(final List<TickToTradeReport.Entry> entries)
    {
        if (measured == null || capture == null)
        {
            wireStatus = "not measured: the run ended before the measured phase";
            return null;
        }
        final List<WireCapture.Frame> frames;
        try
        {
            frames = capture.frames();
        }
        catch (final IOException ex)
        {
            wireStatus = "not measured: cannot read the capture: " + ex.getMessage();
            err.println("wire " + wireStatus);
            return null;
        }
        final QuoteOrderMatcher matcher = new QuoteOrderMatcher(measured.firstQuoteId(), measured.lastQuoteId());
        final int quotePort = measured.quoteTarget().getPort();
        final int exchangePort = measured.exchange().getPort();
        for (final WireCapture.Frame frame : frames)
        {
            if (frame.udpDstPort() == quotePort)
            {
                matcher.quote(frame.epochNanos(), frame.payload());
            }
            else if (frame.tcpDstPort() == exchangePort)
            {
                matcher.order(frame.epochNanos(), frame.payload());
            }
        }
        final QuoteOrderMatcher.Result matched = matcher.result();
        if (matched.matched() == 0)
        {
            wireStatus = "not measured: no quote in the capture was matched to its order (" + frames.size()
                + " frames)";
            err.println("wire " + wireStatus);
        }
        else
        {
            entries.add(TickToTradeReport.Entry.of("wire-to-wire", "capture time of the quote's datagram to "
                + "capture time of its order's segment, both stamped by the kernel on " + measured.interfaceName(),
                matched.wireToWire(), matched.quotes()));
        }
        return new TickToTradeReport.Capture(tshark, capture.timeStampType(), filter, frames.size(),
            matcher.quoteFrames(), matcher.orderMessages(), matched.quotesSeen(), matched.ordersSeen(),
            matched.misordered(), captureSummary);
    }
}
