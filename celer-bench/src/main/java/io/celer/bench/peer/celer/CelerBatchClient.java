package io.celer.bench.peer.celer;

import java.util.Arrays;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.celer.bench.peer.ProgressFile;
import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;

/**
 * Celer's throughput client: writes messages until the write buffer is full, and carries on each time the
 * socket frees some of it.
 */
public final class CelerBatchClient extends ChildHandler
{
    private final IoThreadProbe probe = new IoThreadProbe("client");
    private final byte[] payload;
    private final long total;
    private final ProgressFile progress;
    private long sent;
    private long startNanos;
    private boolean finished;
    private volatile String stats;

    private CelerBatchClient(final int size, final long total, final ProgressFile progress)
    {
        super("celer batch client");
        this.payload = new byte[size];
        Arrays.fill(payload, (byte)'x');
        this.total = total;
        this.progress = progress;
    }

    /**
     * Runs the client until every message is with the kernel.
     *
     * @param args {@code --port=P --messages=N --size=B --cpu=N --progress=FILE --max-seconds=S}.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final CelerBatchClient batch = new CelerBatchClient(size, child.intArg("messages", 1),
            ProgressFile.open(child.pathArg("progress")));
        final Reactor reactor = new Reactor(
            new ReactorConfig().name("celer-client").cpu(child.intArg("cpu", -1)).daemon(true)).start();
        new TcpClient(reactor, "127.0.0.1", child.intArg("port", 0),
            new TcpConfig().framing(() -> new FixedSizeFraming(size)).disconnectOnFullWriteBuffer(false), batch)
            .open();
        child.await(batch.done);
        reactor.stop();
        if (batch.stats == null)
        {
            ChildProcess.fail("celer batch client", new IllegalStateException("closed before sending everything"));
        }
        ChildProcess.report(batch.stats);
    }

    @Override
    public void opened(final Connection connection)
    {
        probe.begin();
        startNanos = System.nanoTime();
        pump(connection);
    }

    @Override
    public void writeSpaceFreed(final Connection connection, final int freeBytes)
    {
        pump(connection);
    }

    private void pump(final Connection connection)
    {
        while (sent < total)
        {
            if (!connection.write(payload))
            {
                // Lagging: the reactor calls writeSpaceFreed as the socket drains.
                return;
            }
            if (++sent % ProgressFile.EVERY == 0)
            {
                progress.set(sent);
            }
        }
        if (!finished)
        {
            connection.flush();
            if (!connection.isLagging())
            {
                finished = true;
                final long nanos = System.nanoTime() - startNanos;
                probe.end(sent);
                progress.set(sent);
                stats = probe.statsLine(nanos);
                connection.close();
            }
        }
    }
}
