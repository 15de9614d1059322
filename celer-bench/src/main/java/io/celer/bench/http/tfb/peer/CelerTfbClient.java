package io.celer.bench.http.tfb.peer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.HdrHistogram.Histogram;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.celer.bench.peer.PingSession;
import io.celer.bench.peer.ReactorCounts;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import org.agrona.concurrent.YieldingIdleStrategy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The TechEmpower load driver: {@code --connections} TCP connections of Celer on one reactor, each keeping
 * {@code --depth} requests of one route in flight (pipelined), sending the next as each response is in; it checks
 * every response ({@link ResponseCheck}) and records each request's time from send to whole response in an
 * HdrHistogram, without garbage.
 *
 * <p>A raw connection rather than Celer's HttpClient: the client spreads requests over its connections for the
 * caller, where a load generator keeps each connection's own pipeline full. It prints {@code connecting}, then
 * {@code measuring} after the warm-up (the harness tells the server {@code begin}), writes the measured histogram
 * to {@code --histogram} and prints {@code stats side=client ... failed=N}; any wrong response or lost connection
 * counts as failed, and the first is printed on stderr.
 */
@Command(name = "celer-tfb-client", mixinStandardHelpOptions = true,
    description = "TechEmpower load driver: Celer TCP connections, pipelined requests, every response checked.")
public final class CelerTfbClient implements Callable<Integer>
{
    private static final int CONNECT_SECONDS = 60;

    @Option(names = "--port", required = true, description = "The server's port on 127.0.0.1.")
    int port;

    @Option(names = "--cpu", defaultValue = "-1", description = "CPU the reactor pins itself to (-1: none).")
    int cpu;

    @Option(names = "--route", defaultValue = "plaintext", description = "plaintext or json.")
    TfbRoute route;

    @Option(names = "--connections", defaultValue = "1", description = "Keep-alive connections.")
    int connections;

    @Option(names = "--depth", defaultValue = "1", description = "Requests in flight on each connection.")
    int depth;

    @Option(names = "--warmup-seconds", defaultValue = "2", description = "Seconds of requests not measured.")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "5", description = "Seconds of measured requests.")
    int seconds;

    @Option(names = "--histogram", required = true, description = "File for the measured histogram, compressed.")
    Path histogramFile;

    private final Histogram histogram = new Histogram(PingSession.HIGHEST_TRACKABLE_NANOS, 3);
    private final IoThreadProbe probe = new IoThreadProbe("client");
    private ResponseCheck check;
    private byte[] request;
    private boolean stopping;
    private long responses;
    private long failed;
    private int settled;
    private int answeredOrGone;
    private String firstFailure;

    /**
     * Runs the driver.
     *
     * @param args its options; see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new CelerTfbClient()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception
    {
        if (connections < 1 || depth < 1 || seconds < 1 || warmupSeconds < 0)
        {
            throw new IllegalArgumentException("--connections, --depth and --seconds must be positive");
        }
        check = route.check();
        request = route.request();
        // Yielding when idle: the process shares its one CPU with its JIT and GC threads.
        final Reactor reactor = new Reactor(new ReactorConfig().name("celer-tfb-client").cpu(cpu)
            .idleStrategy(new YieldingIdleStrategy()).daemon(true)).start();
        final int buffer = Math.max(4096, Integer.highestOneBit(depth * 256 - 1) << 1);
        final TcpConfig config = new TcpConfig().readBufferSize(buffer).writeBufferSize(buffer)
            .socketSendBufferSize(64 * 1024).socketReceiveBufferSize(64 * 1024)
            .connectTimeoutMillis(TimeUnit.SECONDS.toMillis(CONNECT_SECONDS));
        final TcpClient[] clients = new TcpClient[connections];
        ChildProcess.report("connecting");
        reactor.call(() ->
        {
            for (int i = 0; i < connections; i++)
            {
                clients[i] = new TcpClient(reactor, "127.0.0.1", port, config, new Pipeline()).open();
            }
        });
        await(reactor, () -> settled, "opened or failed to");
        Thread.sleep(warmupSeconds * 1000L);
        await(reactor, () -> answeredOrGone, "answered or went after the warm-up");
        final long[] begin = new long[1];
        reactor.call(() ->
        {
            histogram.reset();
            responses = 0;
            begin[0] = System.nanoTime();
            probe.begin();
        });
        ChildProcess.report("measuring");
        Thread.sleep(seconds * 1000L);
        final long[] measured = new long[1];
        reactor.call(() ->
        {
            probe.end(responses);
            measured[0] = System.nanoTime() - begin[0];
            stopping = true;
            for (final TcpClient client : clients)
            {
                client.close();
            }
        });
        reactor.stop();
        write();
        if (firstFailure != null)
        {
            System.err.println("first failure: " + firstFailure);
        }
        ChildProcess.report(probe.statsLine(measured[0]) + " failed=" + failed);
        return 0;
    }

    /** @return right responses while measured, after {@link #call()}. */
    long responses()
    {
        return responses;
    }

    /** @return wrong responses and lost connections, after {@link #call()}. */
    long failed()
    {
        return failed;
    }

    /** @return what the first failure was, or null. */
    String firstFailure()
    {
        return firstFailure;
    }

    /**
     * Waits, boundedly, until a count reaches the connections: until every connection has opened or failed to, so
     * that the warm-up warms requests rather than connects; then until every one has had a response or is gone,
     * since a server still loading its classes on a busy machine may not have answered within the warm-up, and a
     * measure that starts then measures its start-up.
     */
    private void await(final Reactor reactor, final IntSupplier count, final String what)
        throws InterruptedException
    {
        final int seen = ReactorCounts.await(reactor, count, connections, CONNECT_SECONDS);
        if (seen < connections)
        {
            System.err.println("only " + seen + " of " + connections + " connections " + what + " within "
                + CONNECT_SECONDS + " s");
        }
    }

    private void fail(final String why)
    {
        failed++;
        if (firstFailure == null)
        {
            firstFailure = why;
        }
    }

    private void write() throws IOException
    {
        final ByteBuffer encoded = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(encoded);
        Files.write(histogramFile, Arrays.copyOf(encoded.array(), length));
    }

    /**
     * One connection's pipeline: the send times of its requests in flight, oldest first, in a ring.
     */
    private final class Pipeline implements Handler
    {
        private final long[] sentAt = new long[depth];
        private int oldest;
        private int inFlight;
        private boolean wasOpen;
        private boolean wasAnswered;

        @Override
        public void opened(final Connection connection)
        {
            wasOpen = true;
            settled++;
            while (inFlight < depth && send(connection))
            {
                // fills the pipeline
            }
            connection.flush();
        }

        @Override
        public void message(final Connection connection, final ByteBuffer bytes)
        {
            while (bytes.hasRemaining())
            {
                final int length = check.check(bytes);
                if (length == ResponseCheck.INCOMPLETE)
                {
                    return;
                }
                if (length == ResponseCheck.WRONG || inFlight == 0)
                {
                    fail(length == ResponseCheck.WRONG ? check.problem() : "a response to no request");
                    bytes.position(bytes.limit());
                    connection.close();
                    return;
                }
                bytes.position(bytes.position() + length);
                final long now = System.nanoTime();
                histogram.recordValue(Math.min(PingSession.HIGHEST_TRACKABLE_NANOS, Math.max(1, now - sentAt[oldest])));
                oldest = oldest + 1 == depth ? 0 : oldest + 1;
                inFlight--;
                responses++;
                answeredOrGone();
                if (!stopping)
                {
                    send(connection);
                }
            }
        }

        @Override
        public void batchProcessed(final Connection connection)
        {
            connection.flush();
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            if (!wasOpen)
            {
                settled++;
            }
            answeredOrGone();
            if (!stopping)
            {
                fail("connection " + (wasOpen ? "closed" : "not opened") + ": " + reason);
            }
        }

        private void answeredOrGone()
        {
            if (!wasAnswered)
            {
                wasAnswered = true;
                answeredOrGone++;
            }
        }

        private boolean send(final Connection connection)
        {
            if (!connection.write(request))
            {
                return false;
            }
            final int slot = oldest + inFlight;
            sentAt[slot >= depth ? slot - depth : slot] = System.nanoTime();
            inFlight++;
            return true;
        }
    }
}
