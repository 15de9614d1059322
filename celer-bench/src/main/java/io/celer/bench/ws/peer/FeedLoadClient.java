package io.celer.bench.ws.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.YieldingIdleStrategy;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.celer.bench.peer.ProgressFile;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.TimerCallback;
import io.celer.tcp.TcpConfig;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.client.WebSocketClient;

/**
 * The WebSocket benchmark's client: many clients of one server's {@code /feed} on one Celer reactor, a share of
 * them slow ({@link FeedReader}). It connects them all, warms up, measures for a time, and writes a line per second
 * of cumulative counts and the fast clients' latency histogram to {@code --out}, then its stats line. It ends the
 * measure early when every fast client's connection closed (the server stopped at its RSS cap, say); its progress
 * file counts milliseconds.
 */
public final class FeedLoadClient
{
    private static final long CONNECT_MILLIS = 60_000;
    private static final long SAMPLE_MILLIS = 1000;
    /** How long the connections stay open after the measure for the harness to take the server's figures. */
    private static final Duration MEASURED_WAIT = Duration.ofSeconds(30);

    private final Reactor reactor;
    private final FeedTally tally = new FeedTally();
    private final IoThreadProbe probe = new IoThreadProbe("client");
    private final List<String> seconds = new ArrayList<>();
    /** Counts at the start of the measure: fast, slow, slow lost, fast lost, out of order. */
    private final long[] atBegin = new long[5];
    /** Reactor thread: whether the per-second line is still kept. */
    private boolean sampling = true;
    private long beginNanos;
    private long endNanos;
    private long beginMillis;
    private long endMillis;

    private FeedLoadClient(final Reactor reactor)
    {
        this.reactor = reactor;
    }

    /**
     * Runs the client.
     *
     * @param args {@code --port=P --clients=N --slow-percent=S --slow-pause-ms=T --slow-read-bytes=B
     *             --warmup-seconds=W --seconds=D --out=FILE --progress=FILE --cpu=N --max-seconds=M}.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        // Pinned with its JIT and GC threads, as every server's client: yielding when idle lets them run at once
        // instead of preempting a busy spin for a slice, which would show in every peer's tail alike.
        final Reactor reactor = new Reactor(new ReactorConfig().name("celer-feed-client").cpu(child.intArg("cpu", -1))
            .idleStrategy(new YieldingIdleStrategy()).daemon(true)).start();
        final FeedLoadClient client = new FeedLoadClient(reactor);
        try
        {
            client.run(child);
        }
        catch (final RuntimeException ex)
        {
            ChildProcess.fail("feed client", ex);
        }
        finally
        {
            reactor.stop();
        }
    }

    private void run(final ChildProcess child)
    {
        final int clients = child.intArg("clients", 100);
        final int slowPercent = child.intArg("slow-percent", 10);
        final int slowEvery = slowPercent > 0 ? Math.max(1, Math.round(100f / slowPercent)) : 0;
        final long pause = child.intArg("slow-pause-ms", 200);
        final long warmupMillis = child.intArg("warmup-seconds", 3) * 1000L;
        final long measureMillis = child.intArg("seconds", 10) * 1000L;
        final ProgressFile progress = ProgressFile.open(child.pathArg("progress"));
        final String url = "ws://127.0.0.1:" + child.intArg("port", 0) + "/feed";
        final TcpConfig fastTcp = new TcpConfig();
        // A slow client's read takes what a small buffer holds, and its kernel holds little more.
        final TcpConfig slowTcp = new TcpConfig().readBufferSize(child.intArg("slow-read-bytes", 2048))
            .socketReceiveBufferSize(16 * 1024);
        int slowClients = 0;
        final long start = System.currentTimeMillis();
        for (int i = 0; i < clients; i++)
        {
            final boolean slow = slowEvery > 0 && i % slowEvery == slowEvery - 1;
            slowClients += slow ? 1 : 0;
            new WebSocketClient(reactor, url, new WebSocketConfig(), new FeedReader(reactor, tally, slow, pause))
                .tcp(slow ? slowTcp : fastTcp).open();
        }
        while (tally.opened + tally.closed < clients)
        {
            if (System.currentTimeMillis() - start > CONNECT_MILLIS)
            {
                throw new IllegalStateException(tally.opened + " of " + clients + " clients open after " +
                    CONNECT_MILLIS / 1000 + " s, " + tally.closed + " closed");
            }
            sleep(10);
        }
        if (tally.opened < clients)
        {
            throw new IllegalStateException("only " + tally.opened + " of " + clients + " clients connected");
        }
        reactor.call(() -> reactor.schedule(0, new TimerCallback()
        {
            @Override
            public void onTimer(final long timerId, final long nowMillis)
            {
                if (!sampling)
                {
                    return;
                }
                seconds.add("second ms=" + System.currentTimeMillis() + " fast=" + tally.fastReceived + " slow=" +
                    tally.slowReceived + " slow_lost=" + tally.slowLost + " fast_lost=" + tally.fastLost);
                reactor.schedule(SAMPLE_MILLIS, this);
            }
        }));
        final long connected = System.currentTimeMillis();
        final int fastClients = clients - slowClients;
        waitUntil(connected + warmupMillis, connected, progress, fastClients);
        reactor.call(this::begin);
        ChildProcess.measuring();
        waitUntil(beginMillis + measureMillis, connected, progress, fastClients);
        reactor.call(this::end);
        ChildProcess.measured(MEASURED_WAIT);
        write(child.pathArg("out"));
        ChildProcess.report(probe.statsLine(endNanos - beginNanos) + " fast_clients=" + (clients - slowClients) +
            " slow_clients=" + slowClients + " slow_received=" + (tally.slowReceived - atBegin[1]) + " slow_lost=" +
            (tally.slowLost - atBegin[2]) + " fast_lost=" + (tally.fastLost - atBegin[3]) + " out_of_order=" +
            (tally.outOfOrder - atBegin[4]) + " closed=" + tally.closed + " begin_ms=" + beginMillis + " end_ms=" +
            endMillis);
    }

    /**
     * Sleeps until a time or until every fast client closed (the server is gone: slow clients would still be reading
     * what their buffers held), moving the progress file.
     */
    private void waitUntil(final long deadline, final long connected, final ProgressFile progress,
        final int fastClients)
    {
        long now;
        while ((now = System.currentTimeMillis()) < deadline && (fastClients == 0 || tally.fastClosed < fastClients))
        {
            progress.set(now - connected);
            sleep(50);
        }
        progress.set(now - connected);
    }

    private void begin()
    {
        tally.latency.reset();
        tally.sinceDue.reset();
        atBegin[0] = tally.fastReceived;
        atBegin[1] = tally.slowReceived;
        atBegin[2] = tally.slowLost;
        atBegin[3] = tally.fastLost;
        atBegin[4] = tally.outOfOrder;
        probe.begin();
        beginNanos = System.nanoTime();
        beginMillis = System.currentTimeMillis();
    }

    private void end()
    {
        tally.recording = false;
        endNanos = System.nanoTime();
        endMillis = System.currentTimeMillis();
        probe.end(tally.fastReceived - atBegin[0]);
        sampling = false;
        seconds.add("second ms=" + endMillis + " fast=" + tally.fastReceived + " slow=" + tally.slowReceived +
            " slow_lost=" + tally.slowLost + " fast_lost=" + tally.fastLost);
    }

    private void write(final Path out)
    {
        final List<String> lines = new ArrayList<>(seconds);
        lines.add("histogram " + encode(tally.latency));
        lines.add("histogram-due " + encode(tally.sinceDue));
        try
        {
            Files.write(out, lines, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + out, ex);
        }
    }

    private static String encode(final Histogram histogram)
    {
        final ByteBuffer encoded = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(encoded);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(encoded.array(), length));
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
