package io.celer.bench.conns;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The fresh client of {@code bench conns}: one new connection from 127.0.0.1 whose round trips show whether the
 * server still answers as usual, before the held connections and with them. It does the scenario's first
 * exchange, {@code --warmup} unmeasured round trips, then {@code --round-trips} timed ones, and prints
 * {@code round-trips count=N p50_ns=A p99_ns=B max_ns=C}.
 */
@Command(name = "conns-fresh-client", mixinStandardHelpOptions = true,
    description = "Times request round trips on one new connection.")
public final class FreshClient implements Callable<Integer>
{
    /** How the result line starts. */
    static final String PREFIX = "round-trips ";

    @Mixin
    ExchangeOptions server = new ExchangeOptions();

    @Option(names = "--warmup", defaultValue = "20000", description = "Unmeasured round trips first.")
    int warmup;

    @Option(names = "--round-trips", defaultValue = "1000", description = "Timed round trips.")
    int roundTrips;

    /**
     * Runs the client.
     *
     * @param args its options; see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new FreshClient()).execute(args));
    }

    /**
     * Connects, warms up, times, prints.
     *
     * @return 0.
     * @throws IOException if the connection fails or an answer is wrong or late.
     */
    @Override
    public Integer call() throws IOException
    {
        final Exchange exchange = server.exchange();
        final long[] nanos = new long[roundTrips];
        try (SocketChannel channel = server.connect(null))
        {
            final InputStream in = channel.socket().getInputStream();
            final OutputStream out = channel.socket().getOutputStream();
            exchange.open(in, out);
            for (int i = 0; i < warmup; i++)
            {
                exchange.roundTrip(in, out);
            }
            for (int i = 0; i < roundTrips; i++)
            {
                final long start = System.nanoTime();
                exchange.roundTrip(in, out);
                nanos[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(nanos);
        System.out.println(PREFIX + "count=" + roundTrips + " p50_ns=" + rank(nanos, 50) + " p99_ns=" + rank(nanos, 99)
            + " max_ns=" + nanos[nanos.length - 1]);
        System.out.flush();
        return 0;
    }

    /** The nearest-rank percentile of sorted values. */
    private static long rank(final long[] sorted, final double percentile)
    {
        final int index = (int)Math.ceil(percentile / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
