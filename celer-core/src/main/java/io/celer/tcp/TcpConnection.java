package io.celer.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.Channel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;

import io.celer.framing.Framing;
import io.celer.framing.FramingException;
import io.celer.framing.MessageSink;
import io.celer.reactor.internal.ConnectionClosedEvent;
import io.celer.reactor.internal.ConnectionOpenedEvent;
import io.celer.reactor.internal.CycleTask;
import io.celer.reactor.internal.JfrEvents;
import io.celer.reactor.internal.Poller;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReusableChannel;
import io.celer.reactor.StreamSocket;
import io.celer.reactor.TimerCallback;
import io.celer.reactor.internal.Selectable;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.internal.StallCulprit;

/**
 * A TCP connection on a reactor: its state from connect or accept to close, the {@link Connection} calls, and
 * the whole close path (a lingering close that lets the buffered bytes out first, bounded in time, then the
 * release of timers, transport, key, channel and buffers before the owner and the handler hear of it), over its
 * parts: a {@link ConnectionHandshake}, made for the first transport with a handshake, and the steps of
 * {@link ConnectionReader}, {@link ConnectionWriter} and {@link ConnectionTimers}, which work on its own fields:
 * an idle connection is this one object, beside its transport's.
 *
 * <p>The hot path is one chain of calls on final classes: a readiness event or a poll, the reader's read and
 * decode, the handler, this connection's write or send, the writer's put and flush.
 */
final class TcpConnection implements Connection, Selectable, Poller, CycleTask, StallCulprit, MessageSink,
    TimerCallback
{
    private static final System.Logger LOG = System.getLogger(TcpConnection.class.getName());
    private static final AtomicLong IDS = new AtomicLong();

    private static final byte CLOSED = 0;
    private static final byte CONNECTING = 1;
    private static final byte OPEN = 2;
    private static final byte CLOSING = 3;
    private static final byte HANDSHAKING = 4;
    /** Closed for its handler and owner; the socket stays to read and drop what the peer still sends. */
    private static final byte DRAINING = 5;

    // The reader's, the writer's and the timers' steps reach these through the connection.
    final Reactor reactor;
    final TcpConfig config;
    private final ConnectionOwner owner;
    /** Made for the first transport with a handshake (TLS): a plain connection never needs one. */
    private ConnectionHandshake handshake;
    final ConnectionBuffers buffers;
    /** Whether its owner takes it back for a later connection once it is closed: see TcpConfig#reuseConnections. */
    private final boolean reused;

    /** The handler hearing this connection's events now: the first, or the one it was handed to; its parts call it. */
    Handler handler;
    /**
     * Set here on connect or accept; the reader and the writer use them too. A {@code SocketChannel}, or on the
     * native transports an accepted {@link StreamSocket}, which is then its own {@link #key} too.
     */
    ByteChannel channel;
    /** Set here on connect or accept; the reader and the writer use them too. */
    Transport transport = PlainTransport.INSTANCE;
    /** Set here on connect or accept; the reader and the writer use them too. */
    SelectionKey key;

    private InetSocketAddress remoteAddress;
    private long id;
    /** A byte, with the flags beside it: an idle connection's every word counts. */
    private byte state = CLOSED;
    private boolean endOfCycleQueued;
    private Object attachment;
    /** Why a lingering close closes, once the buffered bytes are out or its time is up. */
    private CloseReason closingReason;
    final TcpCounters counters;
    /** This connection's bytes, as {@link #counters} count them, for its closing event. */
    long bytesIn;
    long bytesOut;
    /** Whether it counts among the open connections: from established to close. */
    private boolean countedOpen;

    // The read and the write side's state, which ConnectionReader's and ConnectionWriter's steps work on: fields
    // here rather than two objects, each with a header and a reference back, on every idle connection.
    /** The framing of this connection's bytes both ways; made per connection, as a framing may keep state. */
    final Framing framing;
    /** Lent while the connection lives, or, borrowing per use, while it holds bytes; NONE otherwise. */
    ByteBuffer readBuffer = ConnectionBuffers.NONE;
    /** Lent while the connection lives, or, borrowing per use, while it holds bytes; NONE otherwise. */
    ByteBuffer writeBuffer = ConnectionBuffers.NONE;
    /** Reading stopped by the handler, until it resumes. */
    boolean readPaused;
    /** A resume owes a delivery of what was read before the pause, at the end of the cycle. */
    boolean resumeOwed;
    /** The socket did not take all there was: OP_WRITE is on and the send timeout runs. */
    boolean lagging;
    /** A lag ended outside onWritable: the handler is still owed its writable. */
    boolean spaceFreedOwed;

    // The timers' state, which ConnectionTimers' steps work on; this connection is the callback of its timers.
    long eventTimer = ConnectionTimers.NO_TIMER;
    long readTimer = ConnectionTimers.NO_TIMER;
    /** The bound of the phase the connection is in (connecting, its handshake or lingering), if any. */
    long phaseTimer = ConnectionTimers.NO_TIMER;
    byte timerPhase;
    long sendTimer = ConnectionTimers.NO_TIMER;
    long lastSentMillis;
    long readTimeoutMillis;
    long lastReadMillis;
    /** Whether the read timeout fails the connection (the config's), rather than telling the handler. */
    boolean failOnSilence;
    /** Whether the handshake ran out of its time: told apart in the counters from a handshake the engine refused. */
    boolean handshakeExpired;

    TcpConnection(final Reactor reactor, final TcpConfig config, final ConnectionOwner owner,
        final ConnectionBuffers buffers)
    {
        this.reactor = reactor;
        this.buffers = buffers;
        this.config = config;
        this.owner = owner;
        this.handler = owner.handler();
        this.counters = TcpCounters.of(reactor.counters());
        this.reused = owner.reusesConnections();
        this.framing = config.newFraming();
    }

    /**
     * Takes over an accepted channel and tells the handler it opened.
     */
    void accept(final Channel accepted) throws IOException
    {
        begin((ByteChannel)accepted, false, null, -1);
        // A reusable channel keeps its peer as numbers: the address object is made when asked, or when the channel
        // goes back to its transport (for a connection not itself reused), so that an idle connection holds none.
        remoteAddress = reusable() != null ? null : peerOf(channel);
        key = accepted instanceof StreamSocket socket
            ? reactor.internals().register(socket, SelectionKey.OP_READ, this)
            : reactor.internals().register((SocketChannel)accepted, SelectionKey.OP_READ, this);
        startHandshake();
    }

    /** A connected channel's peer: either kind has the call, under no common type. */
    private static InetSocketAddress peerOf(final ByteChannel channel) throws IOException
    {
        return (InetSocketAddress)(channel instanceof StreamSocket socket ? socket.getRemoteAddress()
            : ((SocketChannel)channel).getRemoteAddress());
    }

    /**
     * Starts a non-blocking connect; the handler hears {@code opened} or {@code closed(CONNECT_FAILED)}.
     */
    void connect(final InetSocketAddress address)
    {
        remoteAddress = address;
        state = CONNECTING;
        try
        {
            final SocketChannel socketChannel = reactor.internals().selectorProvider().openSocketChannel();
            begin(socketChannel, true, address.getHostString(), address.getPort());
            if (address.isUnresolved())
            {
                throw new IOException("cannot resolve " + address.getHostString());
            }
            if (socketChannel.connect(address))
            {
                key = reactor.internals().register(socketChannel, SelectionKey.OP_READ, this);
                startHandshake();
            }
            else
            {
                key = reactor.internals().register(socketChannel, SelectionKey.OP_CONNECT, this);
                ConnectionTimers.startConnect(this);
            }
        }
        catch (final IOException ex)
        {
            fail(CloseReason.CONNECT_FAILED, ex);
        }
    }

    private void begin(final ByteChannel newChannel, final boolean clientMode, final String host, final int port)
        throws IOException
    {
        id = IDS.incrementAndGet();
        channel = newChannel;
        handler = owner.handler(); // the one a new channel starts with
        transport = config.transport().newTransport(clientMode, host, port);
        transport.countInto(reactor.counters());
        if (transport != PlainTransport.INSTANCE)
        {
            if (handshake == null)
            {
                handshake = new ConnectionHandshake(this, owner.handshakeGate());
            }
            transport.resumeHandshakeThrough(handshake.resume(), reactor.internals().confinesChannelIo());
        }
        config.configure((NetworkChannel)newChannel, clientMode);
        buffers.lend(this);
        ConnectionReader.reset(this);
        ConnectionWriter.reset(this);
        ConnectionTimers.reset(this);
        endOfCycleQueued = false;
        bytesIn = 0;
        bytesOut = 0;
    }

    private void startHandshake()
    {
        state = HANDSHAKING; // before the first step, which may already fail on bytes that came with the accept
        if (transport == PlainTransport.INSTANCE)
        {
            handshakeDone(); // no step to take, no gate to pass: a gate bounds handshakes, and there is none
            return;
        }
        handshake.start();
    }

    /**
     * Opens the connection, then delivers what the transport already holds: application bytes that came with
     * the handshake's last flight were read with it, and no readiness event will tell of them.
     */
    void handshakeDone()
    {
        established();
        if (ConnectionReader.isReading(this) && transport.hasBufferedInput())
        {
            try
            {
                ConnectionReader.read(this, false);
            }
            catch (final Throwable t)
            {
                failed(t);
            }
        }
    }

    boolean isHandshaking()
    {
        return state == HANDSHAKING;
    }

    static CloseReason ioFailure(final IOException ex)
    {
        if (ex instanceof TransportLimitException)
        {
            return ((TransportLimitException)ex).reason();
        }
        return ex instanceof javax.net.ssl.SSLException ? CloseReason.TLS_ERROR : CloseReason.IO_ERROR;
    }

    private void established()
    {
        state = OPEN;
        countedOpen = true;
        counters.opened.increment();
        counters.open.increment();
        ConnectionTimers.readAt(this, reactor.nowMillis());
        ConnectionTimers.opened(this);
        if (config.busyPoll())
        {
            reactor.internals().addPoller(this);
        }
        if (JfrEvents.connectionOpened())
        {
            ConnectionOpenedEvent.commit(reactor.counters().name(), remoteAddress(), id);
        }
        owner.onOpened(this);
        try
        {
            handler.opened(this);
        }
        catch (final Throwable t)
        {
            fail(CloseReason.HANDLER_ERROR, t);
        }
    }

    private void finishConnect()
    {
        try
        {
            ((SocketChannel)channel).finishConnect(); // a connecting channel is the JDK's kind
        }
        catch (final IOException ex)
        {
            fail(CloseReason.CONNECT_FAILED, ex);
            return;
        }
        ConnectionTimers.connected(this);
        key.interestOps(SelectionKey.OP_READ);
        startHandshake();
    }

    @Override
    public void onSelect(final SelectionKey selectedKey)
    {
        try
        {
            final int ready = selectedKey.readyOps();
            if (state == DRAINING)
            {
                dropInput();
                return;
            }
            if ((ready & SelectionKey.OP_CONNECT) != 0 && state == CONNECTING)
            {
                finishConnect();
                return;
            }
            if (state == HANDSHAKING)
            {
                handshake.proceed();
                return;
            }
            if ((ready & SelectionKey.OP_WRITE) != 0)
            {
                if (state == CLOSING)
                {
                    lingerOn();
                    return;
                }
                ConnectionWriter.onWritable(this);
            }
            if ((ready & SelectionKey.OP_READ) != 0 && ConnectionReader.isReading(this))
            {
                ConnectionReader.read(this, true);
                // What the handler wrote in answer goes out as its read ends, as Netty flushes on read complete,
                // not after every other ready connection has run: the answer leaves sooner, and the write buffer
                // goes back to the reactor's pool at once, so a cycle with thousands of ready connections does
                // not hold thousands of buffers.
                if (endOfCycleQueued && state == OPEN)
                {
                    ConnectionWriter.flush(this);
                }
            }
        }
        catch (final Throwable t)
        {
            failed(t);
        }
    }

    /** Each of this connection's timers: see ConnectionTimers#onTimer. */
    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        ConnectionTimers.onTimer(this, timerId, nowMillis);
    }

    /** Each message the framing cuts from a read: see ConnectionReader#deliver. */
    @Override
    public boolean onMessage(final ByteBuffer message)
    {
        return ConnectionReader.deliver(this, message);
    }

    /** A lingering close: flushes what the socket takes now, and closes once all is out. */
    private void lingerOn()
    {
        ConnectionWriter.flush(this);
        if (state == CLOSING && ConnectionWriter.isEmpty(this))
        {
            closeNow(closingReason);
        }
    }

    /** A stall in this connection's work names its handler, the application's class. */
    @Override
    public Object culprit()
    {
        return handler;
    }

    @Override
    public int poll()
    {
        if (!ConnectionReader.isReading(this))
        {
            return 0;
        }
        try
        {
            return ConnectionReader.read(this, true) ? 1 : 0;
        }
        catch (final Throwable t)
        {
            failed(t);
            return 1;
        }
    }

    /**
     * A handler or the framing threw: tells the handler and closes.
     */
    void failed(final Throwable t)
    {
        fail(t instanceof FramingException ? CloseReason.FRAMING_ERROR : CloseReason.HANDLER_ERROR, t);
    }

    @Override
    public void handler(final Handler next)
    {
        reactor.checkThread("Connection.handler");
        if (next == null)
        {
            throw new NullPointerException("next");
        }
        if (state != OPEN)
        {
            return;
        }
        handler = next;
        try
        {
            next.opened(this);
        }
        catch (final Throwable t)
        {
            fail(CloseReason.HANDLER_ERROR, t);
        }
    }

    @Override
    public Handler handler()
    {
        return handler;
    }

    @Override
    public void pauseReads()
    {
        reactor.checkThread("Connection.pauseReads");
        ConnectionReader.pause(this);
    }

    @Override
    public void resumeReads()
    {
        reactor.checkThread("Connection.resumeReads");
        if (ConnectionReader.resume(this))
        {
            queueEndOfCycle();
        }
    }

    @Override
    public boolean isReadPaused()
    {
        return readPaused;
    }

    @Override
    public long id()
    {
        return id;
    }

    @Override
    public Reactor reactor()
    {
        return reactor;
    }

    @Override
    public boolean isOpen()
    {
        return state == OPEN;
    }

    boolean isClosed()
    {
        return state == CLOSED;
    }

    @Override
    public boolean write(final ByteBuffer message)
    {
        return flushAtEndOfCycle(ConnectionWriter.put(this, message));
    }

    @Override
    public boolean write(final byte[] message)
    {
        return write(message, 0, message.length);
    }

    @Override
    public boolean write(final byte[] message, final int offset, final int length)
    {
        return flushAtEndOfCycle(ConnectionWriter.put(this, message, offset, length));
    }

    @Override
    public boolean write(final CharSequence message)
    {
        return flushAtEndOfCycle(ConnectionWriter.put(this, message));
    }

    @Override
    public boolean send(final ByteBuffer message)
    {
        return flushed(ConnectionWriter.put(this, message));
    }

    @Override
    public boolean send(final byte[] message)
    {
        return send(message, 0, message.length);
    }

    @Override
    public boolean send(final byte[] message, final int offset, final int length)
    {
        return flushed(ConnectionWriter.put(this, message, offset, length));
    }

    @Override
    public boolean send(final CharSequence message)
    {
        return flushed(ConnectionWriter.put(this, message));
    }

    private boolean flushAtEndOfCycle(final boolean written)
    {
        if (written)
        {
            queueEndOfCycle();
        }
        return written;
    }

    private boolean flushed(final boolean written)
    {
        if (written)
        {
            ConnectionWriter.flush(this);
        }
        return written;
    }

    /**
     * Has {@link #endOfCycle()} run at the end of this cycle, once however many times it is asked.
     */
    private void queueEndOfCycle()
    {
        if (!endOfCycleQueued)
        {
            endOfCycleQueued = true;
            reactor.internals().runAtEndOfCycle(this);
        }
    }

    @Override
    public void endOfCycle()
    {
        endOfCycleQueued = false;
        ConnectionReader.deliverAfterResume(this);
        if (state == OPEN)
        {
            ConnectionWriter.flush(this);
        }
    }

    @Override
    public void flush()
    {
        reactor.checkThread("Connection.flush");
        if (state == OPEN)
        {
            ConnectionWriter.flush(this);
        }
    }

    @Override
    public boolean isLagging()
    {
        return lagging;
    }

    @Override
    public int writeBufferRemaining()
    {
        return ConnectionWriter.remaining(this);
    }

    @Override
    public int writeBufferCapacity()
    {
        return ConnectionWriter.capacity(this);
    }

    @Override
    public void close()
    {
        reactor.checkThread("Connection.close");
        close(CloseReason.LOCAL_CLOSE);
    }

    /**
     * Closes after the buffered bytes reach the socket, or the linger time runs out.
     */
    void close(final CloseReason reason)
    {
        if (state == OPEN)
        {
            ConnectionWriter.flush(this);
            if (state == OPEN && !ConnectionWriter.isEmpty(this) && config.closeLingerMillis() > 0)
            {
                // Waits for the socket to take the buffered bytes, for at most the linger time; reads stop meanwhile.
                state = CLOSING;
                closingReason = reason;
                key.interestOps(SelectionKey.OP_WRITE);
                ConnectionTimers.startLinger(this);
                return;
            }
        }
        closeNow(reason);
    }

    /**
     * Tells the handler of the failure, then closes at once.
     */
    void fail(final CloseReason reason, final Throwable cause)
    {
        if (state == CLOSED)
        {
            return;
        }
        try
        {
            handler.error(this, cause);
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "error callback of connection " + id + " threw", t);
        }
        if (reason == CloseReason.FRAMING_ERROR || reason == CloseReason.HANDLER_ERROR)
        {
            // The socket still works: let a reply the handler wrote (an error message, say) go out first.
            close(reason);
        }
        else
        {
            closeNow(reason);
        }
    }

    /**
     * A lingering close ran out of time: drops what the socket did not take.
     */
    void lingerExpired()
    {
        if (state == DRAINING)
        {
            releaseChannel();
            return;
        }
        Logs.log(LOG, System.Logger.Level.WARNING, "connection " + id + " to " + remoteAddress() + ": " +
            ConnectionWriter.buffered(this) + " buffered bytes not taken within " + config.closeLingerMillis() +
            " ms of closing, dropped");
        closeNow(closingReason);
    }

    /**
     * Closes at once; the transport says goodbye only when the connection was up and did not fail.
     */
    void closeNow(final CloseReason reason)
    {
        if (state == CLOSED || state == DRAINING)
        {
            return;
        }
        final boolean orderly = (state == OPEN || state == CLOSING) && reason != CloseReason.IO_ERROR &&
            reason != CloseReason.TLS_ERROR;
        // After a write linger that ran out of time, with bytes left, the peer reads nothing: no use waiting on it.
        final boolean mayDrain = orderly && ConnectionWriter.isEmpty(this) && drainsOnClose(reason);
        if (state == HANDSHAKING)
        {
            counters.handshakeFailed(reason, handshakeExpired);
        }
        state = CLOSED;
        if (countedOpen && JfrEvents.connectionClosed())
        {
            ConnectionClosedEvent.commit(reactor.counters().name(), remoteAddress(), id, reason, bytesIn, bytesOut);
        }
        counters.closed(reason, countedOpen);
        countedOpen = false;
        ConnectionTimers.cancelAll(this);
        if (handshake != null)
        {
            handshake.closed();
        }
        if (orderly && channel != null)
        {
            transport.shutdown(channel);
        }
        if (mayDrain && channel != null && key != null && unreadInput())
        {
            // Closing a socket with unread input makes the kernel send a reset, which can overtake the last
            // bytes written (a 413, a close frame with 1009) and throw them away at the peer before it reads
            // them. So, as nginx's lingering close does, the output is shut and the input read and dropped
            // until the peer closes or the linger time runs out; the handler and the owner hear of the close
            // now, and the connection's buffers go back now.
            state = DRAINING;
            key.interestOps(SelectionKey.OP_READ);
            ConnectionTimers.startLinger(this);
        }
        else
        {
            releaseChannel();
        }
        ConnectionWriter.closed(this);
        transport.release();
        returnBuffers();
        if (config.busyPoll())
        {
            reactor.internals().removePoller(this);
        }
        // The owner first, as on open: a handler's closed() then sees its client closed and its server without it.
        owner.onClosed(this, reason);
        try
        {
            handler.closed(this, reason);
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "closed callback of connection " + id + " threw", t);
        }
        if (state == CLOSED)
        {
            retire();
        }
    }

    private static boolean drainsOnClose(final CloseReason reason)
    {
        // Not after the peer's end of stream (nothing follows it), nor when the server or reactor stops, nor for
        // a peer that reads nothing or a reactor with no memory.
        return reason != CloseReason.PEER_CLOSED && reason != CloseReason.SERVER_CLOSED &&
            reason != CloseReason.REACTOR_STOPPED && reason != CloseReason.SEND_TIMEOUT &&
            reason != CloseReason.OUT_OF_MEMORY && reason != CloseReason.WRITE_BUFFER_FULL;
    }

    /**
     * Shuts the output and reads once: whether the peer sent bytes this side has not read.
     */
    private boolean unreadInput()
    {
        if (!buffers.pooled())
        {
            return false;
        }
        try
        {
            if (channel instanceof StreamSocket socket)
            {
                socket.shutdownOutput();
            }
            else
            {
                ((SocketChannel)channel).shutdownOutput();
            }
            return readAndDrop() > 0;
        }
        catch (final Throwable t)
        {
            return false;
        }
    }

    /**
     * A draining socket is readable: drops what came, and closes at the end of the stream or on an error.
     */
    private void dropInput()
    {
        try
        {
            if (readAndDrop() >= 0)
            {
                return;
            }
        }
        catch (final Throwable t)
        {
            // A reset, or no memory for a buffer: nothing more to wait for.
        }
        ConnectionTimers.cancelAll(this);
        releaseChannel();
    }

    /**
     * One read whose bytes are dropped; one per readiness event, so a peer that keeps sending gets no more of
     * the reactor's time than any other.
     */
    private int readAndDrop() throws IOException
    {
        return channel.read(buffers.dropBuffer());
    }

    private void releaseChannel()
    {
        final boolean drained = state == DRAINING;
        state = CLOSED;
        final ReusableChannel reusable = reusable();
        // A reusable channel's key stays valid for its next connection: the transport takes it out of the selector.
        if (key != null && reusable == null)
        {
            key.cancel();
        }
        key = null;
        try
        {
            if (reusable != null)
            {
                reusable.closeSocket();
            }
            else if (channel != null)
            {
                channel.close();
            }
        }
        catch (final IOException ex)
        {
            Logs.log(LOG, System.Logger.Level.DEBUG, "closing connection " + id + " failed", ex);
        }
        if (reusable != null && !reused)
        {
            // A reused connection keeps it until it retires: its remote address is read from it till then. This
            // one outlives its channel: it reads the address now, while the channel still has it.
            remoteAddress();
            reusable.recycle();
            channel = null;
        }
        if (drained)
        {
            retire();
        }
    }

    /**
     * The channel, when it is to be closed for reuse: a plain connection's. A TLS handshake's step may still be
     * running on the handshake executor after the close, holding the channel, and must not reach the next
     * connection's socket through it; a TLS connection allocates its engine anyway.
     */
    private ReusableChannel reusable()
    {
        return transport == PlainTransport.INSTANCE && channel instanceof ReusableChannel reusable ? reusable : null;
    }

    /**
     * A reused connection is over for its handler and for its socket: its channel goes back to the transport and
     * the object to its owner, for a later accept, with nothing of this connection's left in it.
     */
    private void retire()
    {
        // Nor a TLS connection: its handshake's late step may still hold this object (see reusable()).
        if (!reused || transport != PlainTransport.INSTANCE)
        {
            return;
        }
        final ReusableChannel reusable = reusable();
        if (reusable != null)
        {
            reusable.recycle();
        }
        channel = null;
        remoteAddress = null;
        attachment = null;
        closingReason = null;
        owner.reuse(this);
    }

    /**
     * Gives the buffers back (to a server's pools), once: only after the channel closed, when no read or write
     * can run again. See {@link ConnectionBuffers} for a read view still held in the handler's call.
     */
    void returnBuffers()
    {
        buffers.takeBack(this);
    }

    @Override
    public void onReactorStop()
    {
        if (state == DRAINING)
        {
            ConnectionTimers.cancelAll(this);
            releaseChannel();
        }
        else if (state != CLOSED)
        {
            closeNow(CloseReason.REACTOR_STOPPED);
        }
    }

    @Override
    public void setEventTimeout(final long delayMillis)
    {
        reactor.checkThread("Connection.setEventTimeout");
        ConnectionTimers.setEventTimeout(this, delayMillis);
    }

    @Override
    public void cancelEventTimeout()
    {
        reactor.checkThread("Connection.cancelEventTimeout");
        ConnectionTimers.cancelEventTimeout(this);
    }

    @Override
    public void setReadTimeout(final long timeoutMillis)
    {
        reactor.checkThread("Connection.setReadTimeout");
        ConnectionTimers.setReadTimeout(this, timeoutMillis);
    }

    @Override
    public InetSocketAddress remoteAddress()
    {
        if (remoteAddress == null && channel != null)
        {
            try
            {
                remoteAddress = peerOf(channel);
            }
            catch (final IOException ex)
            {
                // Not connected: no address to give.
            }
        }
        return remoteAddress;
    }

    @Override
    public int socketSendBufferSize()
    {
        return intOption(StandardSocketOptions.SO_SNDBUF);
    }

    @Override
    public int socketReceiveBufferSize()
    {
        return intOption(StandardSocketOptions.SO_RCVBUF);
    }

    private int intOption(final java.net.SocketOption<Integer> option)
    {
        try
        {
            // Not once closed: a reusable channel reports itself open, and its descriptor may be another's by now.
            return channel != null && state != CLOSED && channel.isOpen()
                ? ((NetworkChannel)channel).getOption(option) : -1;
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T attachment()
    {
        return (T)attachment;
    }

    @Override
    public void attach(final Object attachment)
    {
        this.attachment = attachment;
    }

    @Override
    public String toString()
    {
        return "Connection[" + id + ", " + remoteAddress() + "]";
    }
}
