package io.celer.bench.peer.celer;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.ProgressFile;
import io.celer.bench.peer.ThroughputSession;
import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;

/**
 * Celer's throughput client: writes messages until the write buffer is full, and carries on each time the
 * socket frees some of it.
 */
public final class CelerBatchClient extends ChildHandler
{
    private final ThroughputSession session;
    private long sent;
    private boolean finished;

    private CelerBatchClient(final ThroughputSession session)
    {
        super("celer batch client");
        this.session = session;
    }

    /**
     * Runs the client until every message is with the kernel.
     *
     * @param args {@code --port=P --messages=N --size=B --cpu=N --progress=FILE --max-seconds=S}.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final CelerBatchClient batch = new CelerBatchClient(new ThroughputSession(child));
        final int size = batch.session.payload().length;
        final Reactor reactor = new Reactor(ChildReactor.config(child, "celer-client")).start();
        new TcpClient(reactor, "127.0.0.1", child.intArg("port", 0),
            new TcpConfig().framing(() -> new FixedSizeFraming(size)).disconnectOnFullWriteBuffer(false), batch)
            .open();
        child.await(batch.done);
        reactor.stop();
        batch.session.report("celer batch client");
    }

    @Override
    public void opened(final Connection connection)
    {
        session.start();
        pump(connection);
    }

    @Override
    public void writable(final Connection connection, final int freeBytes)
    {
        pump(connection);
    }

    private void pump(final Connection connection)
    {
        // Locals for the loop: a field would be read again after every write the JIT does not inline.
        final byte[] payload = session.payload();
        final long total = session.total();
        while (sent < total)
        {
            if (!connection.write(payload))
            {
                // Lagging: the reactor calls writable as the socket drains.
                return;
            }
            if (++sent % ProgressFile.EVERY == 0)
            {
                session.progress(sent);
            }
        }
        if (!finished)
        {
            connection.flush();
            if (!connection.isLagging())
            {
                finished = true;
                session.finish(sent);
                connection.close();
            }
        }
    }
}
