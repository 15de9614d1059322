package io.celer.bench.peer.celer;

import java.nio.ByteBuffer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.celer.framing.FixedSizeFraming;
import io.celer.framing.LengthPrefixedFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * Celer's counting server for the throughput and batching benchmarks: counts messages and their bytes, and
 * times them from the first after the warm-up to the last.
 */
public final class CelerSinkServer extends ChildHandler
{
    private final IoThreadProbe probe = new IoThreadProbe("server");
    private final long warmup;
    private final long expected;
    private final int stallMillis;
    private long received;
    private long bytes;
    private long firstNanos;
    private volatile String stats;

    private CelerSinkServer(final long warmup, final long expected, final int stallMillis)
    {
        super("celer sink server");
        this.warmup = warmup;
        this.expected = expected;
        this.stallMillis = stallMillis;
    }

    /**
     * Runs the server until its client disconnects.
     *
     * @param args {@code --size=B --messages=N --cpu=N --max-seconds=S}; {@code --warmup=N} messages not timed
     *             before them (default 0); {@code --framing=fixed|length} (fixed-size messages, the default, or
     *             a 4-byte length before each); {@code --idle=spin|backoff} (busy spin, the default, or
     *             Agrona's backoff, which parks an idle reactor up to a millisecond); {@code --stall-ms=N}, to
     *             test the client's back-pressure, stops reading for N ms after the first message;
     *             {@code --rcvbuf=BYTES}, SO_RCVBUF to ask for (default: Celer's).
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final int warmup = child.intArg("warmup", 0);
        final CelerSinkServer sink = new CelerSinkServer(warmup, (long)warmup + child.intArg("messages", 1),
            child.intArg("stall-ms", 0));
        final boolean lengthPrefixed = "length".equals(child.arg("framing", "fixed"));
        final Reactor reactor = new Reactor(ChildReactor.config(child, "celer-server")
            .idleStrategy("backoff".equals(child.arg("idle", "spin"))
                ? new BackoffIdleStrategy(100, 10, 1_000, 1_000_000) : new BusySpinIdleStrategy())).start();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .socketReceiveBufferSize(child.intArg("rcvbuf", 4 * 1024 * 1024))
            .framing(() -> lengthPrefixed ? new LengthPrefixedFraming(4, size) : new FixedSizeFraming(size)), sink)
            .open();
        ChildProcess.listening(server.port());
        child.await(sink.done);
        reactor.stop();
        ChildProcess.report(sink.stats == null ? "stats missing" : sink.stats);
    }

    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        if (received == warmup)
        {
            probe.begin();
            firstNanos = System.nanoTime();
        }
        bytes += message.remaining();
        message.position(message.limit());
        if (++received == expected)
        {
            finish();
        }
        else if (received == 1 && stallMillis > 0)
        {
            stall();
        }
    }

    private void stall()
    {
        // Blocks the reactor on purpose: the socket buffers fill and the client has to hold back.
        try
        {
            Thread.sleep(stallMillis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void finish()
    {
        final long nanos = System.nanoTime() - firstNanos;
        probe.end(Math.max(0, received - warmup));
        stats = probe.statsLine(nanos) + " received=" + received + " bytes=" + bytes;
    }

    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        if (stats == null)
        {
            // Short of the count: report what came, for the harness to say how much is missing.
            finish();
        }
        done.countDown();
    }
}
