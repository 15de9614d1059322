package io.celer.bench.peer.celer;

import java.util.function.Consumer;

import io.celer.bench.peer.BatchingSession;
import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.MessageRing;
import io.celer.framing.LengthPrefixedFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;

/**
 * Celer's client of the batching benchmark: application threads publish into a garbage-free ring, and the
 * reactor drains it every cycle into one connection, either writing each message and flushing once per drained
 * batch, or sending (write and flush) each message.
 *
 * <p>A drain takes only as many messages as the write buffer has room for, so {@code write} is never refused;
 * when a flush cannot make room for even one, the connection lags and the reactor stops draining until
 * {@link #writable}, while the producers wait on the full ring.
 */
public final class CelerBatchingClient extends ChildHandler implements Runnable
{
    private final BatchingSession session;
    private final MessageRing ring;
    private final boolean flushEach;
    private final Consumer<MessageRing.Message> writer = this::write;
    private Reactor reactor;
    private Connection connection;
    private boolean paused;
    private boolean finishing;

    private CelerBatchingClient(final BatchingSession session, final boolean flushEach)
    {
        super("celer batching client");
        this.session = session;
        this.ring = session.ring();
        this.flushEach = flushEach;
    }

    /**
     * Runs the client until every message is flushed.
     *
     * @param args {@code --port=P --producers=P --warmup=N --messages=N --size=B --flush=batch|message --cpu=N
     *             --sndbuf=BYTES --progress=FILE --max-seconds=S}.
     * @throws InterruptedException if interrupted while waiting for the producers.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 27);
        final CelerBatchingClient client = new CelerBatchingClient(new BatchingSession(child),
            "message".equals(child.arg("flush", "batch")));
        client.reactor = new Reactor(ChildReactor.config(child, "celer-client")).start();
        new TcpClient(client.reactor, "127.0.0.1", child.intArg("port", 0), new TcpConfig()
            .framing(() -> new LengthPrefixedFraming(BatchingSession.PREFIX, size))
            .socketSendBufferSize(child.intArg("sndbuf", 4 * 1024 * 1024))
            // The default 64 KiB, or room for a few messages from every producer should they be large.
            .writeBufferSize(Math.max(64 * 1024, 4 * child.intArg("producers", 1) * (BatchingSession.PREFIX + size)))
            .disconnectOnFullWriteBuffer(false), client).open();
        child.await(client.done);
        client.reactor.stop();
        final String stats = client.session.statsLine();
        if (stats == null)
        {
            ChildProcess.fail("celer batching client", new IllegalStateException("closed before flushing all"));
        }
        ChildProcess.report(stats);
    }

    @Override
    public void opened(final Connection opened)
    {
        connection = opened;
        session.start();
        reactor.callAsync(this);
    }

    /**
     * One drain, run by the reactor every cycle until every message is written or the connection lags.
     */
    @Override
    public void run()
    {
        if (!connection.isOpen())
        {
            return;
        }
        int limit = session.drainLimit(connection.writeBufferRemaining());
        if (limit == 0)
        {
            connection.flush();
            limit = session.drainLimit(connection.writeBufferRemaining());
            if (limit == 0)
            {
                // Lagging: writable resumes; meanwhile the ring fills and the producers wait.
                paused = true;
                session.paused();
                return;
            }
        }
        if (ring.drain(writer, limit) > 0)
        {
            session.drained();
            if (!flushEach)
            {
                connection.flush();
            }
        }
        if (session.allWritten())
        {
            finish();
            return;
        }
        // Once per cycle: a callback queued from a callback runs in the next cycle, after the selector.
        reactor.callAsync(this);
    }

    private void write(final MessageRing.Message message)
    {
        final boolean taken = flushEach
            ? connection.send(message.bytes, 0, message.length)
            : connection.write(message.bytes, 0, message.length);
        if (!taken)
        {
            ChildProcess.fail("celer batching client", new IllegalStateException("write refused with room for it"));
        }
        session.written();
    }

    private void finish()
    {
        connection.flush();
        if (connection.isLagging())
        {
            finishing = true;
            return;
        }
        session.finished();
        connection.close();
    }

    @Override
    public void writable(final Connection freed, final int freeBytes)
    {
        if (finishing)
        {
            finish();
        }
        else if (paused)
        {
            paused = false;
            run();
        }
    }
}
