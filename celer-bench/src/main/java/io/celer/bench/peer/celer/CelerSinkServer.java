package io.celer.bench.peer.celer;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * Celer's throughput server: counts fixed-size messages and times them from the first to the last.
 */
public final class CelerSinkServer implements Handler
{
    private final IoThreadProbe probe = new IoThreadProbe("server");
    private final CountDownLatch done = new CountDownLatch(1);
    private final long expected;
    private long received;
    private long firstNanos;
    private volatile String stats;

    private CelerSinkServer(final long expected)
    {
        this.expected = expected;
    }

    /**
     * Runs the server until its client disconnects.
     *
     * @param args {@code --size=B --messages=N --cpu=N --max-seconds=S}.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final CelerSinkServer sink = new CelerSinkServer(child.intArg("messages", 1));
        final Reactor reactor = new Reactor(
            new ReactorConfig().name("celer-server").cpu(child.intArg("cpu", -1)).daemon(true)).start();
        final TcpServer server = new TcpServer(reactor, 0,
            new TcpConfig().bindAddress("127.0.0.1").framing(() -> new FixedSizeFraming(size)), sink).open();
        ChildProcess.listening(server.port());
        child.await(sink.done);
        reactor.stop();
        ChildProcess.report(sink.stats == null ? "stats missing" : sink.stats);
    }

    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        if (received == 0)
        {
            probe.begin();
            firstNanos = System.nanoTime();
        }
        message.position(message.limit());
        if (++received == expected)
        {
            final long nanos = System.nanoTime() - firstNanos;
            probe.end(received);
            stats = probe.statsLine(nanos);
        }
    }

    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        done.countDown();
    }

    @Override
    public void error(final Connection connection, final Throwable error)
    {
        ChildProcess.fail("celer sink server connection failed", error);
    }
}
