package io.celer.examples.ticktotrade;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.udp.UdpConfig;

/**
 * Runs the tick-to-trade example in one process: a quote generator, the strategy on its own reactor, and a
 * pseudo exchange on another; warms up, then measures spaced quotes and prints the percentiles.
 *
 * <p>Quotes go by multicast on the loopback interface, switched on here when possible (it needs root), so no
 * datagram leaves the machine; otherwise by unicast, and the output says so.
 */
public final class TickToTrade
{
    /** The multicast group of the quotes. */
    public static final String GROUP = "239.255.77.1";

    private static final int MALFORMED_EVERY = 10_000;

    private TickToTrade()
    {
    }

    /**
     * The outcome of a run.
     *
     * @param tickToTrade nanoseconds from a quote's arrival to its order's write, measured quotes only.
     * @param transport   "multicast" or "unicast".
     * @param measured    quotes sent in the measured phase.
     * @param lost        measured quotes that got no execution within a second.
     * @param malformed   malformed datagrams the strategy dropped.
     * @param orders      orders the exchange filled.
     */
    public record Result(Histogram tickToTrade, String transport, long measured, long lost, long malformed,
        long orders)
    {
    }

    /**
     * Runs the whole example.
     *
     * @param warmUp        quotes sent as fast as the strategy takes them, not measured.
     * @param quotes        spaced quotes measured.
     * @param spacingMicros pause between measured quotes.
     * @param out           where to print progress and results.
     * @return what was measured.
     * @throws IOException if the generator's socket fails.
     */
    public static Result run(final long warmUp, final long quotes, final long spacingMicros, final PrintStream out)
        throws IOException
    {
        return run(warmUp, quotes, spacingMicros, out, MeasurementListener.NONE);
    }

    /**
     * Runs the whole example and tells a listener when the measured phase starts and ends.
     *
     * @param warmUp        quotes sent as fast as the strategy takes them, not measured.
     * @param quotes        spaced quotes measured.
     * @param spacingMicros pause between measured quotes.
     * @param out           where to print progress and results.
     * @param listener      told where the measured packets travel, before the first and after the last.
     * @return what was measured.
     * @throws IOException if the generator's socket fails.
     */
    public static Result run(final long warmUp, final long quotes, final long spacingMicros, final PrintStream out,
        final MeasurementListener listener) throws IOException
    {
        final Reactor exchangeReactor = new Reactor(new ReactorConfig().name("exchange")
            .idleStrategy(new BackoffIdleStrategy(100, 10, 1_000, 100_000)).daemon(true)).start();
        final Reactor strategyReactor = new Reactor(new ReactorConfig().name("strategy")
            .idleStrategy(new BusySpinIdleStrategy()).daemon(true)).start();
        try
        {
            final PseudoExchange exchange = new PseudoExchange(exchangeReactor, 0).open();
            final NetworkInterface loopback = multicastLoopback();
            final String transport = loopback == null ? "unicast" : "multicast";
            // The quote socket is the hot path: read it every cycle rather than when the selector says so.
            final UdpConfig quoteConfig = (loopback == null ?
                new UdpConfig().bindAddress("127.0.0.1") :
                new UdpConfig().multicastInterface(loopback).reuseAddress(true)).busyPoll(true);
            final TickToTradeStrategy strategy = new TickToTradeStrategy(strategyReactor, quoteConfig, exchange.port())
                .open();
            final InetSocketAddress target;
            if (loopback == null)
            {
                out.println("multicast is off on the loopback interface and could not be switched on " +
                    "(needs root): sending quotes by unicast");
                target = new InetSocketAddress("127.0.0.1", strategy.quotes().port());
            }
            else
            {
                final InetAddress group = InetAddress.getByName(GROUP);
                strategyReactor.call(() -> strategy.quotes().join(group));
                target = new InetSocketAddress(group, strategy.quotes().port());
            }
            awaitConnected(strategy);

            try (DatagramChannel generator = DatagramChannel.open(StandardProtocolFamily.INET))
            {
                generator.bind(new InetSocketAddress("127.0.0.1", 0));
                if (loopback != null)
                {
                    generator.setOption(StandardSocketOptions.IP_MULTICAST_IF, loopback);
                    generator.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 0); // never beyond this host
                }
                final ByteBuffer quote = ByteBuffer.allocateDirect(Quote.LENGTH + 1);
                out.printf("warming up with %,d quotes by %s to %s%n", warmUp, transport, target);
                long malformedSent = 0;
                for (long id = 1; id <= warmUp; id++)
                {
                    if (id % MALFORMED_EVERY == 0)
                    {
                        sendQuote(generator, quote, id, target, true); // truncated: the strategy must drop it
                        malformedSent++;
                    }
                    sendQuote(generator, quote, id, target, false);
                    // Stay a little ahead of the strategy, so the socket buffer never overflows.
                    final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
                    while (id + malformedSent - strategy.quotesReceived() > 64 && System.nanoTime() < deadline)
                    {
                        Thread.onSpinWait();
                    }
                }
                awaitQuiet(strategy, warmUp + malformedSent);

                listener.beforeMeasuring(new MeasurementListener.Phase(interfaceName(loopback), transport,
                    (InetSocketAddress)generator.getLocalAddress(), target,
                    new InetSocketAddress("127.0.0.1", exchange.port()), warmUp + 1, warmUp + quotes));
                out.printf("measuring %,d quotes, %d µs apart%n", quotes, spacingMicros);
                strategy.recording(true);
                long lost = 0;
                for (long i = 1; i <= quotes; i++)
                {
                    final long executionsBefore = strategy.executions();
                    sendQuote(generator, quote, warmUp + i, target, false);
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                    while (strategy.executions() == executionsBefore)
                    {
                        if (System.nanoTime() > deadline)
                        {
                            if (++lost > 10)
                            {
                                throw new IllegalStateException("no execution for " + lost + " quotes: " +
                                    exchange.rejects() + " orders rejected by the exchange, " +
                                    strategy.quotesReceived() + " quotes received by the strategy");
                            }
                            break;
                        }
                        // Parked, not spinning: the strategy spins on one CPU, and on a small machine the exchange
                        // (and a packet capture watching the run) need the other.
                        LockSupport.parkNanos(1_000);
                    }
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(spacingMicros));
                }
                strategy.recording(false);
                awaitQuiet(strategy, warmUp + malformedSent + quotes);
                listener.afterMeasuring();
                final Histogram copy = new Histogram(strategy.tickToTrade().getHighestTrackableValue(), 3);
                strategyReactor.call(() -> copy.add(strategy.tickToTrade()));
                return new Result(copy, transport, quotes, lost,
                    strategy.malformed(), exchange.orders());
            }
        }
        finally
        {
            strategyReactor.stop();
            exchangeReactor.stop();
        }
    }

    /**
     * Prints a result as a table of percentiles in microseconds.
     *
     * @param result what was measured.
     * @param out    where.
     */
    public static void print(final Result result, final PrintStream out)
    {
        final Histogram h = result.tickToTrade();
        out.printf("tick-to-trade inside the process (quote read to order written), %,d quotes by %s:%n",
            h.getTotalCount(), result.transport());
        out.printf("  %-7s %9.2f µs%n", "min", h.getMinValue() / 1000.0);
        for (final double p : new double[] {50, 90, 99, 99.9, 99.99})
        {
            out.printf("  %-7s %9.2f µs%n", "p" + trim(p), h.getValueAtPercentile(p) / 1000.0);
        }
        out.printf("  %-7s %9.2f µs%n  %-7s %9.2f µs%n", "max", h.getMaxValue() / 1000.0, "mean", h.getMean() / 1000.0);
        out.printf("lost %d, malformed datagrams dropped %d, orders filled %,d%n", result.lost(), result.malformed(),
            result.orders());
    }

    private static String trim(final double p)
    {
        return p == Math.rint(p) ? Long.toString((long)p) : Double.toString(p);
    }

    private static void sendQuote(final DatagramChannel generator, final ByteBuffer quote, final long id,
        final InetSocketAddress target, final boolean truncated) throws IOException
    {
        quote.clear();
        Quote.write(quote, id, (id & 1) == 0 ? (byte)'B' : (byte)'S', "CELR", 100 + (int)(id % 900),
            1_234_500 + id % 1000);
        quote.flip();
        if (truncated)
        {
            quote.limit(Quote.LENGTH - 5);
        }
        generator.send(quote, target);
    }

    private static void awaitConnected(final TickToTradeStrategy strategy)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!strategy.isConnected())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the strategy could not connect to the exchange");
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static void awaitQuiet(final TickToTradeStrategy strategy, final long quotesSent)
    {
        // Every quote read, not only every order answered: a warm-up quote still queued in the socket would
        // otherwise be read, and measured, once recording starts.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while ((strategy.quotesReceived() < quotesSent || strategy.executions() < strategy.ordersSent()) &&
            System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(100_000);
        }
    }

    private static String interfaceName(final NetworkInterface multicast) throws IOException
    {
        // Unicast quotes and the orders go to 127.0.0.1: the loopback interface, whatever it is called here.
        final NetworkInterface lo = multicast != null ? multicast :
            NetworkInterface.getByInetAddress(InetAddress.getByName("127.0.0.1"));
        return lo != null ? lo.getName() : "lo";
    }

    /**
     * The loopback interface with multicast on, switching it on when it is off and this process may (root).
     *
     * @return the interface, or null when multicast on loopback is not available.
     */
    public static NetworkInterface multicastLoopback()
    {
        try
        {
            NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
            if (lo != null && !lo.supportsMulticast())
            {
                final Process p = new ProcessBuilder("ip", "link", "set", lo.getName(), "multicast", "on")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                p.waitFor(10, TimeUnit.SECONDS);
                lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
            }
            return lo != null && lo.supportsMulticast() ? lo : null;
        }
        catch (final IOException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
