package io.celer.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
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
 * The handshake runs on the handshake executor of {@link TlsConfig#handshakeExecutor}, in steps: each makes
 * every engine call it can (the engine's creation, the records' wrap and unwrap, the delegated tasks with the
 * signature and the key agreement) and reads and writes the socket between them, until the socket has nothing
 * more now; the connection watches nothing meanwhile and resumes on its reactor, which owns the engine again
 * from then on, the executor's volatile write and the reactor's queue between them. A renegotiation or key
 * update after the handshake, rare and bounded by {@link TlsConfig#maxRenegotiations}, runs on the reactor
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

    private static final int NO_STEP = 0;
    private static final int STEP_WAITING = 1;
    private static final int STEP_DONE = 2;
    private static final int STEP_FAILED = 3;

    private final EngineFactory engines;
    private final boolean clientMode;
    private final String peerHost;
    private final int peerPort;
    /** Made by the handshake's first step. */
    private SSLEngine engine;
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
    private boolean inboundDone;
    private boolean moreToUnwrap;
    /** A renegotiation or key update the peer started is under way. */
    private boolean rehandshaking;
    private int renegotiations;
    private long renegotiationWindowStart;
    private TlsCounters counters;
    /** Where the handshake's steps run; null: on the reactor thread. */
    private final Executor handshakeExecutor;
    private final Runnable stepThere = this::stepThere;
    private Runnable resume;
    /** The socket the handshake's steps read and write. */
    private ByteChannel channel;
    /** What the last step came to, until the reactor thread took it: NO_STEP once taken. */
    private int stepResult = NO_STEP;
    private Throwable stepFailure;
    private boolean closeNotifyInHandshake;
    /** Set on the reactor thread, cleared on the executor's once its step ran: then all is the reactor's again. */
    private volatile boolean working;
    /**
     * The socket may be read and written on the reactor thread alone (io_uring's rings): a step then makes engine
     * calls only, and the reactor sends what it wrapped and reads what the next one unwraps, between steps.
     */
    private boolean ioOnReactor;
    /** A step without I/O stopped for the peer's bytes, not only to have its records sent. */
    private boolean stepNeedsBytes;
    /** The reactor thread while it hands a step over: an executor that runs it at once, on it, resumes nothing. */
    private Thread handingOver;
    private boolean ranInPlace;

    /**
     * Makes the connection's engine, on the thread of the handshake's first step.
     */
    interface EngineFactory
    {
        /**
         * A new engine, its parameters set.
         *
         * @param clientMode true on the side that connected.
         * @param peerHost   the host the client connected to, or null.
         * @param peerPort   its port, or -1.
         * @return the engine, its handshake not begun.
         */
        SSLEngine newEngine(boolean clientMode, String peerHost, int peerPort);
    }

    TlsTransport(final EngineFactory engines, final boolean clientMode, final String peerHost, final int peerPort,
        final int packetSize, final int plaintextSize, final int maxRenegotiations,
        final long renegotiationIntervalMillis, final Executor handshakeExecutor)
    {
        this.engines = engines;
        this.clientMode = clientMode;
        this.peerHost = peerHost;
        this.peerPort = peerPort;
        this.handshakeExecutor = handshakeExecutor;
        this.packetSize = packetSize;
        this.plaintextSize = plaintextSize;
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
        return working;
    }

    @Override
    public void resumeHandshakeThrough(final Runnable resumeHandshake, final boolean channelIoConfined)
    {
        this.resume = resumeHandshake;
        this.ioOnReactor = channelIoConfined;
    }

    @Override
    public boolean handshake(final ByteChannel channel) throws IOException
    {
        if (working)
        {
            return false; // a stale resume: the engine and the buffers are the executor's until its step ran
        }
        try
        {
            while (true)
            {
                if (stepResult == NO_STEP)
                {
                    if (buffers == null)
                    {
                        // All three now, on the reactor thread that owns them: a step elsewhere takes none.
                        buffers = TlsBuffers.ofThisThread();
                        takeNetIn();
                        takeAppIn();
                        takeNetOut();
                    }
                    this.channel = channel;
                    if (ioOnReactor && !exchangeForStep(channel))
                    {
                        return false;
                    }
                    // A handshake left with only its records to send ends here: no step elsewhere for nothing.
                    if (!(ioOnReactor && engine != null && handshakeOver()) && handOver())
                    {
                        return false;
                    }
                    if (stepResult == NO_STEP)
                    {
                        step(); // no executor, or it refused the step
                    }
                }
                if (stepped())
                {
                    return true;
                }
                if (!ioOnReactor)
                {
                    return false; // the step waits for the socket it read and wrote
                }
                // The step waits for I/O it left to this thread: done now, and the next step follows if it can.
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
     * What the last step came to, on the reactor thread: the socket to wait for, a failure to throw, or the end
     * of the handshake, when the engine and the buffers are the reactor's again.
     *
     * @return true once the handshake is done.
     */
    private boolean stepped() throws IOException
    {
        final int result = stepResult;
        stepResult = NO_STEP;
        if (closeNotifyInHandshake && counters != null)
        {
            closeNotifyInHandshake = false;
            counters.closeNotifyReceived.increment();
        }
        if (result == STEP_FAILED)
        {
            final Throwable failure = stepFailure;
            stepFailure = null;
            if (failure instanceof IOException)
            {
                throw (IOException)failure;
            }
            if (failure instanceof Error)
            {
                throw (Error)failure;
            }
            // An engine, a key manager or a trust manager that threw: the handshake failed, not the handler.
            final SSLHandshakeException failed = new SSLHandshakeException("the TLS handshake failed: " + failure);
            failed.initCause(failure);
            throw failed;
        }
        if (result == STEP_WAITING)
        {
            return false;
        }
        // Application records may have come with the peer's last flight, still encrypted.
        moreToUnwrap = netIn.position() > 0;
        // A server may still owe its session ticket: that is not the peer renegotiating.
        rehandshaking = engine.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
        giveBackEmpty();
        return true;
    }

    /**
     * On the reactor thread between steps that make no I/O: sends what the last step wrapped, and reads what the
     * next one unwraps (before the first step too, where the peer's first flight may have come already).
     *
     * @return false when the socket must be ready first: for the rest of the records, or for bytes the last
     * step stopped for and that have not come.
     */
    private boolean exchangeForStep(final ByteChannel channel) throws IOException
    {
        if (!flushNetOut(channel))
        {
            return false;
        }
        if (engine == null || stepNeedsBytes)
        {
            final int read = netIn.hasRemaining() ? channel.read(netIn) : 0;
            if (read < 0)
            {
                throw new SSLHandshakeException("the peer closed the connection during the TLS handshake");
            }
            if (read == 0 && stepNeedsBytes)
            {
                return false;
            }
        }
        return true;
    }

    private boolean handshakeOver()
    {
        final SSLEngineResult.HandshakeStatus status = engine.getHandshakeStatus();
        return status == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING ||
            status == SSLEngineResult.HandshakeStatus.FINISHED;
    }

    /**
     * Every engine call of the handshake, from the engine's creation on, with the socket reads and writes between
     * them, until the socket has nothing more to give or take now or the handshake is done: on the handshake
     * executor, or on the reactor thread without one. What it comes to waits in {@link #stepResult}.
     */
    private void step()
    {
        stepNeedsBytes = false;
        try
        {
            if (engine == null)
            {
                engine = engines.newEngine(clientMode, peerHost, peerPort);
                engine.beginHandshake();
            }
            stepResult = shakeHands() ? STEP_DONE : STEP_WAITING;
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            stepFailure = ex;
            stepResult = STEP_FAILED;
        }
    }

    /**
     * @return true once the handshake is done, false when the socket has nothing more to give or take now.
     */
    private boolean shakeHands() throws IOException
    {
        while (true)
        {
            if (ioOnReactor && netOut.position() > 0)
            {
                // The reactor sends these first; it reads as well when nothing already here can be unwrapped.
                stepNeedsBytes = netIn.position() == 0 &&
                    engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_UNWRAP;
                return false;
            }
            if (!flushNetOut(channel))
            {
                return false;
            }
            switch (engine.getHandshakeStatus())
            {
                case NOT_HANDSHAKING:
                case FINISHED:
                    return true;
                case NEED_TASK:
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

    /**
     * Unwraps one handshake record, reading the socket when a whole one has not arrived.
     *
     * @return false when the socket has nothing more now.
     */
    private boolean unwrapHandshake(final ByteChannel channel) throws IOException
    {
        final SSLEngineResult result = unwrap();
        switch (result.getStatus())
        {
            case BUFFER_UNDERFLOW:
                if (!netIn.hasRemaining())
                {
                    throw new SSLHandshakeException("a TLS record larger than " + netIn.capacity() + " bytes");
                }
                if (ioOnReactor)
                {
                    stepNeedsBytes = true; // the reactor reads them
                    return false;
                }
                final int read = channel.read(netIn);
                if (read < 0)
                {
                    throw new SSLHandshakeException("the peer closed the connection during the TLS handshake");
                }
                return read > 0;
            case CLOSED:
                closeNotifyInHandshake = true; // counted on the reactor thread, which owns the counters
                throw new SSLHandshakeException("the peer closed TLS during the handshake");
            default:
                return true;
        }
    }

    @Override
    public int read(final ByteChannel channel, final ByteBuffer destination, final boolean fromSocket)
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
    private void answerPeer(final ByteChannel channel) throws IOException
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
    public void write(final ByteChannel channel, final ByteBuffer source) throws IOException
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
        return !working && netOut.position() > 0;
    }

    @Override
    public void shutdown(final ByteChannel channel)
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
    private void sendAlert(final ByteChannel channel, final boolean fatal)
    {
        if (engine == null || working)
        {
            return; // nothing said yet, or the executor's step still has the engine
        }
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
        if (working)
        {
            // The executor's step still uses them (the handshake timed out meanwhile): they are left to it and
            // to the garbage collector rather than lent again under it.
            return;
        }
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
        takeNetOut();
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
    private boolean flushNetOut(final ByteChannel channel) throws IOException
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

    private void takeNetOut()
    {
        if (netOut == NONE)
        {
            netOut = buffers.takePacket(packetSize);
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
     * Hands the handshake's next step to the handshake executor, so that the reactor goes on serving its other
     * connections meanwhile: every engine call of a handshake (its creation, the records' wrap and unwrap, which
     * holds the client's Finished and the session ticket, the delegated tasks with the signature and the key
     * agreement) costs from tens of microseconds to milliseconds. The executor's thread resumes the connection
     * on its reactor once the step ran.
     *
     * @return true when the step went to another thread, whose resume will come; false when it goes on here: no
     * executor, it refused the step, or it ran it already, in place.
     */
    private boolean handOver()
    {
        if (handshakeExecutor == null || resume == null)
        {
            return false;
        }
        working = true;
        handingOver = Thread.currentThread();
        try
        {
            handshakeExecutor.execute(stepThere);
            return !ranInPlace;
        }
        catch (final RejectedExecutionException ex)
        {
            working = false;
            return false;
        }
        finally
        {
            handingOver = null;
            ranInPlace = false;
        }
    }

    /** On the handshake executor's thread, or at once on the reactor's when the executor runs steps in place. */
    private void stepThere()
    {
        final boolean inPlace = Thread.currentThread() == handingOver;
        try
        {
            step();
        }
        finally
        {
            if (inPlace)
            {
                ranInPlace = true;
            }
            working = false;
            if (!inPlace)
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
