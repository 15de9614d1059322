package io.celer.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import io.celer.counters.CounterScope;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Transport;
import io.celer.tcp.TransportLimitException;

/**
 * TLS over a non-blocking socket with the JDK's {@link SSLEngine}.
 *
 * <p>Encrypted bytes go through two buffers of one TLS record each; decrypted bytes through a third, so that
 * a record larger than the room left in the connection's read buffer waits here instead of failing. The
 * encrypted ones are heap buffers: the JDK encrypts and decrypts records in place there, and its AES-GCM
 * copies a direct buffer through temporary arrays on every record (about 1.3 KB of garbage per round trip on
 * JDK 17 and 25), while the socket copies a heap buffer through a direct buffer it caches per thread.
 * The handshake's delegated tasks (the signature, the key agreement, certificate checks) run on the handshake
 * executor of {@link TlsConfig#handshakeExecutor}, the connection watching nothing meanwhile; those of a
 * renegotiation or key update after it, rare and bounded by {@link TlsConfig#maxRenegotiations}, on the reactor
 * thread.
 *
 * <p>The three buffers are borrowed from the thread's {@link TlsBuffers} while they hold bytes (all three for
 * the handshake) and given back once empty, so an idle connection holds none. Renegotiations and key updates
 * the peer starts are counted against {@link TlsConfig#maxRenegotiations}.
 */
final class TlsTransport implements Transport
{
    /** What a connection holds in place of a buffer it does not borrow now: nothing, and no room. */
    private static final ByteBuffer NONE = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private final int packetSize;
    private final int plaintextSize;
    private final int maxRenegotiations;
    private final long renegotiationIntervalNanos;
    /** Taken on the first handshake step, on the thread that runs the connection. */
    private TlsBuffers buffers;
    // Borrowed from the thread's buffers while they hold bytes (all three during a handshake), NONE otherwise.
    private ByteBuffer netIn = NONE;
    private ByteBuffer netOut = NONE;
    /** Kept in read mode: position to limit is what waits for the connection. */
    private ByteBuffer appIn = NONE;
    private final ByteBuffer empty = ByteBuffer.allocate(0);
    // The array forms of wrap and unwrap: the one-buffer forms allocate an array per call.
    private final ByteBuffer[] wrapSource = new ByteBuffer[1];
    private final ByteBuffer[] unwrapTarget = new ByteBuffer[1];
    private boolean started;
    private boolean inboundDone;
    private boolean moreToUnwrap;
    /** A renegotiation or key update the peer started is under way. */
    private boolean rehandshaking;
    private int renegotiations;
    private long renegotiationWindowStart;
    private TlsCounters counters;
    /** Where the handshake's delegated tasks run; null: on the reactor thread. */
    private final Executor handshakeExecutor;
    private final Runnable runTasksThere = this::runTasksThere;
    private Runnable resume;
    /** Set on the reactor thread, cleared on the executor's once the tasks ran: then the engine is the reactor's. */
    private volatile boolean tasksRunning;
    /** The reactor thread while it hands tasks over: an executor that runs them at once, on it, resumes nothing. */
    private Thread handingOver;

    TlsTransport(final SSLEngine engine, final int maxRenegotiations, final long renegotiationIntervalMillis,
        final Executor handshakeExecutor)
    {
        this.handshakeExecutor = handshakeExecutor;
        this.engine = engine;
        this.packetSize = engine.getSession().getPacketBufferSize();
        this.plaintextSize = engine.getSession().getApplicationBufferSize();
        this.maxRenegotiations = maxRenegotiations;
        this.renegotiationIntervalNanos = renegotiationIntervalMillis * 1_000_000L;
    }

    @Override
    public void countInto(final CounterScope scope)
    {
        counters = TlsCounters.of(scope);
    }

    @Override
    public boolean handshakeWorkPending()
    {
        return tasksRunning;
    }

    @Override
    public void resumeHandshakeThrough(final Runnable resumeHandshake)
    {
        this.resume = resumeHandshake;
    }

    @Override
    public boolean handshake(final SocketChannel channel) throws IOException
    {
        if (tasksRunning)
        {
            return false; // a stale resume: the engine is the executor's until its tasks ran
        }
        try
        {
            if (!started)
            {
                started = true;
                buffers = TlsBuffers.ofThisThread();
                engine.beginHandshake();
            }
            takeNetIn();
            takeAppIn();
            while (true)
            {
                if (!flushNetOut(channel))
                {
                    return false;
                }
                switch (engine.getHandshakeStatus())
                {
                    case NOT_HANDSHAKING:
                    case FINISHED:
                        // Application records may have come with the peer's last flight, still encrypted.
                        moreToUnwrap = netIn.position() > 0;
                        // A server may still owe its session ticket: that is not the peer renegotiating.
                        rehandshaking = engine.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
                        giveBackEmpty();
                        return true;
                    case NEED_TASK:
                        if (handOverTasks())
                        {
                            return false;
                        }
                        runTasks();
                        break;
                    case NEED_WRAP:
                        wrapRecord(empty); // a task it asks for comes round as NEED_TASK
                        break;
                    default: // NEED_UNWRAP, NEED_UNWRAP_AGAIN
                        if (!unwrapHandshake(channel))
                        {
                            return false;
                        }
                        break;
                }
            }
        }
        catch (final SSLException ex)
        {
            failed(ex);
            sendAlert(channel, true);
            throw ex;
        }
    }

    /**
     * Unwraps one handshake record, reading the socket when a whole one has not arrived.
     *
     * @return false when the socket has nothing more now.
     */
    private boolean unwrapHandshake(final SocketChannel channel) throws IOException
    {
        final SSLEngineResult result = unwrap();
        switch (result.getStatus())
        {
            case BUFFER_UNDERFLOW:
                if (!netIn.hasRemaining())
                {
                    throw new SSLHandshakeException("a TLS record larger than " + netIn.capacity() + " bytes");
                }
                final int read = channel.read(netIn);
                if (read < 0)
                {
                    throw new SSLHandshakeException("the peer closed the connection during the TLS handshake");
                }
                return read > 0;
            case CLOSED:
                if (counters != null)
                {
                    counters.closeNotifyReceived.increment();
                }
                throw new SSLHandshakeException("the peer closed TLS during the handshake");
            default:
                return true;
        }
    }

    @Override
    public int read(final SocketChannel channel, final ByteBuffer destination, final boolean fromSocket)
        throws IOException
    {
        final int start = destination.position();
        moveAppIn(destination);
        if (fromSocket && !inboundDone)
        {
            takeNetIn();
            if (netIn.hasRemaining() && channel.read(netIn) < 0)
            {
                // End of stream without close_notify: a truncation, but what arrived whole is still good.
                inboundDone = true;
            }
        }
        try
        {
            unwrapAll();
            answerPeer(channel);
        }
        catch (final SSLException | TransportLimitException ex)
        {
            // A corrupt, oversized or unexpected record: the engine holds the fatal alert that says so. Over the
            // renegotiation bound: close_notify.
            failed(ex);
            sendAlert(channel, ex instanceof SSLException);
            throw ex;
        }
        moveAppIn(destination);
        giveBackEmpty();
        final int added = destination.position() - start;
        return added == 0 && inboundDone && !appIn.hasRemaining() && !moreToUnwrap ? -1 : added;
    }

    /**
     * Unwraps records while whole ones wait and the plaintext buffer has room.
     */
    private void unwrapAll() throws SSLException, TransportLimitException
    {
        moreToUnwrap = false;
        while (netIn.position() > 0)
        {
            final SSLEngineResult result = unwrap();
            final SSLEngineResult.HandshakeStatus handshakeStatus = result.getHandshakeStatus();
            if (handshakeStatus != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING)
            {
                if (!rehandshaking)
                {
                    countRenegotiation();
                }
                // One read may hold the end of one renegotiation and the start of the next.
                rehandshaking = handshakeStatus != SSLEngineResult.HandshakeStatus.FINISHED;
            }
            switch (result.getStatus())
            {
                case BUFFER_OVERFLOW:
                    moreToUnwrap = true;
                    return;
                case BUFFER_UNDERFLOW:
                    return;
                case CLOSED:
                    if (!inboundDone && counters != null)
                    {
                        counters.closeNotifyReceived.increment();
                    }
                    inboundDone = true;
                    return;
                default:
                    if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK)
                    {
                        runTasks();
                    }
                    if (result.bytesConsumed() == 0 && result.bytesProduced() == 0)
                    {
                        return;
                    }
                    break;
            }
        }
    }

    /**
     * After the handshake the peer may still ask for an answer (a TLS 1.3 key update, a renegotiation).
     */
    private void answerPeer(final SocketChannel channel) throws IOException
    {
        SSLEngineResult.HandshakeStatus status = engine.getHandshakeStatus();
        while (status == SSLEngineResult.HandshakeStatus.NEED_WRAP || status == SSLEngineResult.HandshakeStatus.NEED_TASK)
        {
            if (status == SSLEngineResult.HandshakeStatus.NEED_TASK)
            {
                runTasks();
            }
            else
            {
                if (!flushNetOut(channel))
                {
                    return;
                }
                if (wrap(empty).bytesProduced() == 0)
                {
                    return;
                }
            }
            status = engine.getHandshakeStatus();
        }
        // Still waiting for the peer's next flight: its records are part of the same renegotiation.
        rehandshaking = status != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
        flushNetOut(channel);
    }

    /**
     * The peer started a renegotiation (TLS 1.2), a key update or another message after the handshake (TLS 1.3):
     * each costs the reactor thread key derivation, a full handshake for a renegotiation, so a peer may start
     * only so many within an interval.
     */
    private void countRenegotiation() throws TransportLimitException
    {
        final long now = System.nanoTime();
        if (renegotiations == 0 || now - renegotiationWindowStart >= renegotiationIntervalNanos)
        {
            renegotiationWindowStart = now;
            renegotiations = 0;
        }
        if (++renegotiations > maxRenegotiations)
        {
            throw new TransportLimitException(CloseReason.RENEGOTIATION_LIMIT, "the peer renegotiated or updated " +
                "keys " + renegotiations + " times within " + renegotiationIntervalNanos / 1_000_000L + " ms, more " +
                "than the " + maxRenegotiations + " allowed");
        }
    }

    @Override
    public boolean hasBufferedInput()
    {
        // A close_notify read with the last records ends the stream, and no readiness event will say so when
        // the peer keeps its TCP connection open.
        return appIn.hasRemaining() || moreToUnwrap || inboundDone;
    }

    @Override
    public void write(final SocketChannel channel, final ByteBuffer source) throws IOException
    {
        while (flushNetOut(channel) && source.hasRemaining())
        {
            final SSLEngineResult result = wrap(source);
            if (result.getStatus() == SSLEngineResult.Status.CLOSED)
            {
                if (inboundDone)
                {
                    // Before TLS 1.3 the peer's close_notify closes both directions, and the protocol says to
                    // discard what is still to be written; the next read reports the end of the stream.
                    source.position(source.limit());
                    break;
                }
                throw new SSLException("TLS is closed for writing");
            }
        }
        giveBackNetOut();
    }

    @Override
    public boolean hasPendingOutput()
    {
        return netOut.position() > 0;
    }

    @Override
    public void shutdown(final SocketChannel channel)
    {
        sendAlert(channel, false);
    }

    private void failed(final Exception failure)
    {
        if (counters != null)
        {
            counters.failed(failure);
        }
    }

    /**
     * Closes the outbound side, which makes the engine produce close_notify or the alert of a failed
     * handshake, and tries once to send it.
     *
     * @param fatal whether the engine failed: its alert, if it made one, is fatal.
     */
    private void sendAlert(final SocketChannel channel, final boolean fatal)
    {
        try
        {
            engine.closeOutbound();
            boolean produced = false;
            while (!engine.isOutboundDone())
            {
                if (!flushNetOut(channel))
                {
                    break;
                }
                final int bytes = wrap(empty).bytesProduced();
                if (bytes == 0)
                {
                    break;
                }
                produced = true;
            }
            if (produced && counters != null)
            {
                (fatal ? counters.fatalSent : counters.closeNotifySent).increment();
            }
            flushNetOut(channel);
        }
        catch (final IOException | RuntimeException ex)
        {
            // best effort: the socket closes right after
        }
    }

    @Override
    public void release()
    {
        // Whatever they hold is of a closed connection.
        if (netIn != NONE)
        {
            buffers.givePacket(netIn);
            netIn = NONE;
        }
        if (netOut != NONE)
        {
            buffers.givePacket(netOut);
            netOut = NONE;
        }
        if (appIn != NONE)
        {
            buffers.givePlaintext(appIn);
            appIn = NONE;
            unwrapTarget[0] = null;
        }
    }

    private SSLEngineResult unwrap() throws SSLException
    {
        takeAppIn();
        netIn.flip();
        appIn.compact();
        try
        {
            return engine.unwrap(netIn, unwrapTarget, 0, 1);
        }
        finally
        {
            appIn.flip();
            netIn.compact();
        }
    }

    private SSLEngineResult wrap(final ByteBuffer source) throws SSLException
    {
        final SSLEngineResult result = wrapRecord(source);
        if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK)
        {
            runTasks();
        }
        return result;
    }

    private SSLEngineResult wrapRecord(final ByteBuffer source) throws SSLException
    {
        if (netOut == NONE)
        {
            netOut = buffers.takePacket(packetSize);
        }
        wrapSource[0] = source;
        final SSLEngineResult result = engine.wrap(wrapSource, 0, 1, netOut);
        if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW)
        {
            // Only called with netOut empty, which always holds one record.
            throw new SSLException("a TLS record does not fit " + netOut.capacity() + " bytes");
        }
        return result;
    }

    /**
     * Moves encrypted bytes to the socket.
     *
     * @return true when none wait any more.
     */
    private boolean flushNetOut(final SocketChannel channel) throws IOException
    {
        if (netOut.position() == 0)
        {
            return true;
        }
        netOut.flip();
        try
        {
            channel.write(netOut);
        }
        finally
        {
            netOut.compact();
        }
        return netOut.position() == 0;
    }

    private void takeNetIn()
    {
        if (netIn == NONE)
        {
            netIn = buffers.takePacket(packetSize);
        }
    }

    private void takeAppIn()
    {
        if (appIn == NONE)
        {
            appIn = buffers.takePlaintext(plaintextSize).flip();
            unwrapTarget[0] = appIn;
        }
    }

    /**
     * Gives back the buffers that hold nothing: an idle connection holds none.
     */
    private void giveBackEmpty()
    {
        if (netIn != NONE && netIn.position() == 0)
        {
            buffers.givePacket(netIn);
            netIn = NONE;
        }
        if (appIn != NONE && !appIn.hasRemaining())
        {
            buffers.givePlaintext(appIn);
            appIn = NONE;
            unwrapTarget[0] = null;
        }
        giveBackNetOut();
    }

    private void giveBackNetOut()
    {
        if (netOut != NONE && netOut.position() == 0)
        {
            buffers.givePacket(netOut);
            netOut = NONE;
        }
    }

    private void moveAppIn(final ByteBuffer destination)
    {
        final int n = Math.min(appIn.remaining(), destination.remaining());
        if (n > 0)
        {
            final int limit = appIn.limit();
            appIn.limit(appIn.position() + n);
            destination.put(appIn);
            appIn.limit(limit);
        }
    }

    /**
     * Hands the engine's delegated tasks (a server's signature and key agreement, a client's certificate checks:
     * a millisecond or more each) to the handshake executor, so that the reactor goes on serving its other
     * connections meanwhile; the executor's thread resumes the handshake once they ran.
     *
     * @return false when the handshake goes on here: no executor, it refused them, or they ran already.
     */
    private boolean handOverTasks()
    {
        if (handshakeExecutor == null || resume == null)
        {
            return false;
        }
        tasksRunning = true;
        handingOver = Thread.currentThread();
        try
        {
            handshakeExecutor.execute(runTasksThere);
        }
        catch (final RejectedExecutionException ex)
        {
            tasksRunning = false;
        }
        finally
        {
            handingOver = null;
        }
        return tasksRunning;
    }

    /** On the handshake executor's thread, or at once on the reactor's when the executor runs tasks in place. */
    private void runTasksThere()
    {
        try
        {
            runTasks();
        }
        finally
        {
            // A task that failed left its exception in the engine: the next step on the reactor throws it.
            tasksRunning = false;
            if (Thread.currentThread() != handingOver)
            {
                resume.run();
            }
        }
    }

    private void runTasks()
    {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null)
        {
            task.run();
        }
    }
}
