package io.celer.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;

import io.celer.framing.FramingException;
import io.celer.framing.Framing;
import io.celer.framing.MessageSink;
import io.celer.reactor.CycleTask;
import io.celer.reactor.Poller;
import io.celer.reactor.Reactor;
import io.celer.reactor.Selectable;
import io.celer.reactor.TimerCallback;

/**
 * A TCP connection on a reactor: its buffers, framing, timers and the all-or-nothing write path.
 */
final class TcpConnection implements Connection, Selectable, Poller, MessageSink, CycleTask, TimerCallback
{
    private static final System.Logger LOG = System.getLogger(TcpConnection.class.getName());
    private static final AtomicLong IDS = new AtomicLong();
    private static final long NO_TIMER = Long.MIN_VALUE;

    private static final int CLOSED = 0;
    private static final int CONNECTING = 1;
    private static final int OPEN = 2;
    private static final int CLOSING = 3;
    private static final int HANDSHAKING = 4;

    private final Reactor reactor;
    private final TcpConfig config;
    private final Handler handler;
    private final ConnectionOwner owner;
    private final Framing framing;
    private final ByteBuffer readBuffer;
    private final ByteBuffer writeBuffer;

    private SocketChannel channel;
    private Transport transport = PlainTransport.INSTANCE;
    private SelectionKey key;
    private InetSocketAddress remoteAddress;
    private long id;
    private int state = CLOSED;
    private boolean lagging;
    private boolean spaceFreedOwed;
    private boolean endOfCycleQueued;
    private boolean readsPaused;
    private boolean resumeOwed;
    private CloseReason closingReason;
    private long eventTimer = NO_TIMER;
    private long readTimer = NO_TIMER;
    private long connectTimer = NO_TIMER;
    private long lingerTimer = NO_TIMER;
    private long handshakeTimer = NO_TIMER;
    private long readTimeoutMillis;
    private long lastReadMillis;
    private Object attachment;

    TcpConnection(final Reactor reactor, final TcpConfig config, final Handler handler, final ConnectionOwner owner)
    {
        this.reactor = reactor;
        this.config = config;
        this.handler = handler;
        this.owner = owner;
        this.framing = config.newFraming();
        this.readBuffer = ByteBuffer.allocateDirect(config.readBufferSize());
        this.writeBuffer = ByteBuffer.allocateDirect(config.writeBufferSize());
    }

    /**
     * Takes over an accepted channel and tells the handler it opened.
     */
    void accept(final SocketChannel acceptedChannel) throws IOException
    {
        begin(acceptedChannel, false, null, -1);
        remoteAddress = (InetSocketAddress)acceptedChannel.getRemoteAddress();
        key = reactor.register(acceptedChannel, SelectionKey.OP_READ, this);
        startHandshake();
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
            begin(SocketChannel.open(), true, address.getHostString(), address.getPort());
            if (address.isUnresolved())
            {
                throw new IOException("cannot resolve " + address.getHostString());
            }
            if (channel.connect(address))
            {
                key = reactor.register(channel, SelectionKey.OP_READ, this);
                startHandshake();
            }
            else
            {
                key = reactor.register(channel, SelectionKey.OP_CONNECT, this);
                connectTimer = reactor.schedule(config.connectTimeoutMillis(), this);
            }
        }
        catch (final IOException ex)
        {
            fail(CloseReason.CONNECT_FAILED, ex);
        }
    }

    private void begin(final SocketChannel newChannel, final boolean clientMode, final String host, final int port)
        throws IOException
    {
        id = IDS.incrementAndGet();
        channel = newChannel;
        transport = config.transport().newTransport(clientMode, host, port);
        newChannel.configureBlocking(false);
        newChannel.setOption(StandardSocketOptions.TCP_NODELAY, config.tcpNoDelay());
        newChannel.setOption(StandardSocketOptions.SO_KEEPALIVE, config.keepAlive());
        if (config.socketSendBufferSize() > 0)
        {
            newChannel.setOption(StandardSocketOptions.SO_SNDBUF, config.socketSendBufferSize());
        }
        if (config.socketReceiveBufferSize() > 0)
        {
            newChannel.setOption(StandardSocketOptions.SO_RCVBUF, config.socketReceiveBufferSize());
        }
        readBuffer.clear();
        writeBuffer.clear();
        framing.reset();
        lagging = false;
        spaceFreedOwed = false;
        endOfCycleQueued = false;
        readsPaused = false;
        resumeOwed = false;
        readTimeoutMillis = 0;
    }

    /**
     * Opens at once over a plain transport; otherwise waits for the transport's handshake.
     */
    private void startHandshake()
    {
        state = HANDSHAKING; // before the first step, which may already fail on bytes that came with the accept
        try
        {
            if (transport.handshake(channel))
            {
                handshakeDone();
                return;
            }
        }
        catch (final IOException ex)
        {
            fail(ioFailure(ex), ex);
            return;
        }
        handshakeTimer = reactor.schedule(config.handshakeTimeoutMillis(), this);
        handshakeInterest();
    }

    private void continueHandshake()
    {
        try
        {
            if (!transport.handshake(channel))
            {
                handshakeInterest();
                return;
            }
        }
        catch (final IOException ex)
        {
            fail(ioFailure(ex), ex);
            return;
        }
        cancel(handshakeTimer);
        handshakeTimer = NO_TIMER;
        key.interestOps(SelectionKey.OP_READ);
        handshakeDone();
    }

    /**
     * Opens the connection, then delivers what the transport already holds: application bytes that came with
     * the handshake's last flight were read with it, and no readiness event will tell of them.
     */
    private void handshakeDone()
    {
        established();
        if (state == OPEN && !readsPaused && transport.hasBufferedInput())
        {
            try
            {
                onReadable(false);
            }
            catch (final Throwable t)
            {
                failed(t);
            }
        }
    }

    private void handshakeInterest()
    {
        key.interestOps(SelectionKey.OP_READ | (transport.hasPendingOutput() ? SelectionKey.OP_WRITE : 0));
    }

    private static CloseReason ioFailure(final IOException ex)
    {
        return ex instanceof javax.net.ssl.SSLException ? CloseReason.TLS_ERROR : CloseReason.IO_ERROR;
    }

    private void established()
    {
        state = OPEN;
        lastReadMillis = reactor.nowMillis();
        if (config.busyPoll())
        {
            reactor.addPoller(this);
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

    @Override
    public void onSelect(final SelectionKey selectedKey)
    {
        try
        {
            final int ready = selectedKey.readyOps();
            if ((ready & SelectionKey.OP_CONNECT) != 0 && state == CONNECTING)
            {
                finishConnect();
                return;
            }
            if (state == HANDSHAKING)
            {
                continueHandshake();
                return;
            }
            if ((ready & SelectionKey.OP_WRITE) != 0)
            {
                onWritable();
            }
            if ((ready & SelectionKey.OP_READ) != 0 && state == OPEN && !readsPaused)
            {
                onReadable(true);
            }
        }
        catch (final Throwable t)
        {
            failed(t);
        }
    }

    @Override
    public int poll()
    {
        if (state != OPEN || readsPaused)
        {
            return 0;
        }
        try
        {
            return onReadable(true) ? 1 : 0;
        }
        catch (final Throwable t)
        {
            failed(t);
            return 1;
        }
    }

    private void failed(final Throwable t)
    {
        fail(t instanceof FramingException ? CloseReason.FRAMING_ERROR : CloseReason.HANDLER_ERROR, t);
    }

    private void finishConnect()
    {
        try
        {
            channel.finishConnect();
        }
        catch (final IOException ex)
        {
            fail(CloseReason.CONNECT_FAILED, ex);
            return;
        }
        cancel(connectTimer);
        connectTimer = NO_TIMER;
        key.interestOps(SelectionKey.OP_READ);
        startHandshake();
    }

    /**
     * Reads once from the socket (or only from the transport's buffers), delivers the messages, and goes on
     * while the transport still holds application bytes that the read buffer had no room for.
     *
     * @return whether anything was read.
     */
    private boolean onReadable(final boolean fromSocket)
    {
        boolean fromChannel = fromSocket;
        boolean delivered = false;
        do
        {
            final int read;
            try
            {
                read = transport.read(channel, readBuffer, fromChannel);
            }
            catch (final IOException ex)
            {
                fail(ioFailure(ex), ex);
                return false;
            }
            fromChannel = false;
            if (read < 0)
            {
                close(CloseReason.PEER_CLOSED);
                return false;
            }
            if (read == 0)
            {
                break;
            }
            delivered = true;
            lastReadMillis = reactor.nowMillis();
            decodeReadBuffer();
            if (state == CLOSED)
            {
                return true;
            }
        }
        while (state == OPEN && !readsPaused && transport.hasBufferedInput());
        if (transport.hasPendingOutput() && state == OPEN)
        {
            flushNow(); // the transport answered the peer (a TLS key update, say) and must be heard
        }
        if (delivered && state == OPEN)
        {
            handler.batchProcessed(this);
        }
        return delivered;
    }

    /**
     * Hands the read buffer's whole messages to the handler and keeps the rest (a partial message, or what came
     * after a pause) for later.
     */
    private void decodeReadBuffer()
    {
        readBuffer.flip();
        framing.decode(readBuffer, this);
        if (state == CLOSED)
        {
            return;
        }
        if (!readBuffer.hasRemaining())
        {
            readBuffer.clear();
        }
        else if (readBuffer.position() == 0 && readBuffer.limit() == readBuffer.capacity())
        {
            throw new FramingException("read buffer of " + readBuffer.capacity() +
                " bytes is full and the handler consumed none of it");
        }
        else
        {
            readBuffer.compact();
        }
    }

    @Override
    public boolean onMessage(final ByteBuffer message)
    {
        handler.message(this, message);
        return state == OPEN && !readsPaused;
    }

    @Override
    public void pauseReads()
    {
        reactor.checkThread("Connection.pauseReads");
        if (state != OPEN || readsPaused)
        {
            return;
        }
        readsPaused = true;
        key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
        if (config.busyPoll())
        {
            reactor.removePoller(this);
        }
    }

    @Override
    public void resumeReads()
    {
        reactor.checkThread("Connection.resumeReads");
        if (!readsPaused)
        {
            return;
        }
        readsPaused = false;
        if (state != OPEN)
        {
            return;
        }
        lastReadMillis = reactor.nowMillis();
        key.interestOps(key.interestOps() | SelectionKey.OP_READ);
        if (config.busyPoll())
        {
            reactor.addPoller(this);
        }
        // Not now: the caller may be inside this connection's own message callback, in the middle of a decode.
        resumeOwed = true;
        queueEndOfCycle();
    }

    @Override
    public boolean isReadPaused()
    {
        return readsPaused;
    }

    /**
     * Delivers what was read before a pause: whole messages left in the read buffer, then the transport's.
     */
    private void deliverAfterResume()
    {
        if (state != OPEN || readsPaused)
        {
            return;
        }
        try
        {
            final int held = readBuffer.position();
            if (held > 0)
            {
                decodeReadBuffer();
            }
            if (state == OPEN && !readsPaused && transport.hasBufferedInput())
            {
                onReadable(false); // tells the handler the batch ended
            }
            else if (state == OPEN && readBuffer.position() < held)
            {
                handler.batchProcessed(this);
            }
        }
        catch (final Throwable t)
        {
            failed(t);
        }
    }

    private void onWritable()
    {
        final int freeBefore = writeBuffer.remaining();
        flushNow();
        if (state == CLOSING && writeBuffer.position() == 0 && !transport.hasPendingOutput())
        {
            closeNow(closingReason);
            return;
        }
        if (state == OPEN && !lagging)
        {
            key.interestOps(key.interestOps() & ~SelectionKey.OP_WRITE);
        }
        if (state == OPEN && (spaceFreedOwed || writeBuffer.remaining() > freeBefore))
        {
            spaceFreedOwed = false;
            handler.writeSpaceFreed(this, writeBuffer.remaining());
        }
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

    @Override
    public boolean write(final ByteBuffer message)
    {
        return flushAtEndOfCycle(put(message));
    }

    @Override
    public boolean write(final byte[] message)
    {
        return flushAtEndOfCycle(put(message, 0, message.length));
    }

    @Override
    public boolean write(final byte[] message, final int offset, final int length)
    {
        return flushAtEndOfCycle(put(message, offset, length));
    }

    @Override
    public boolean write(final CharSequence message)
    {
        return flushAtEndOfCycle(put(message));
    }

    @Override
    public boolean send(final ByteBuffer message)
    {
        return flushed(put(message));
    }

    @Override
    public boolean send(final byte[] message)
    {
        return flushed(put(message, 0, message.length));
    }

    @Override
    public boolean send(final byte[] message, final int offset, final int length)
    {
        return flushed(put(message, offset, length));
    }

    @Override
    public boolean send(final CharSequence message)
    {
        return flushed(put(message));
    }

    private boolean put(final ByteBuffer message)
    {
        reactor.checkThread("Connection.write");
        final int length = message.remaining();
        if (!reserve(length))
        {
            return false;
        }
        framing.writeHeader(writeBuffer, length);
        writeBuffer.put(message);
        framing.writeTrailer(writeBuffer);
        return true;
    }

    private boolean put(final byte[] message, final int offset, final int length)
    {
        reactor.checkThread("Connection.write");
        if (offset < 0 || length < 0 || offset + length > message.length)
        {
            throw new IndexOutOfBoundsException(
                "offset " + offset + " and length " + length + " outside an array of " + message.length);
        }
        if (!reserve(length))
        {
            return false;
        }
        framing.writeHeader(writeBuffer, length);
        writeBuffer.put(message, offset, length);
        framing.writeTrailer(writeBuffer);
        return true;
    }

    private boolean put(final CharSequence message)
    {
        reactor.checkThread("Connection.write");
        final int length = message.length();
        if (!reserve(length))
        {
            return false;
        }
        framing.writeHeader(writeBuffer, length);
        for (int i = 0; i < length; i++)
        {
            final char c = message.charAt(i);
            writeBuffer.put(c < 256 ? (byte)c : (byte)'?');
        }
        framing.writeTrailer(writeBuffer);
        return true;
    }

    private boolean flushAtEndOfCycle(final boolean written)
    {
        if (written)
        {
            queueEndOfCycle();
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
            reactor.runAtEndOfCycle(this);
        }
    }

    private boolean flushed(final boolean written)
    {
        if (written)
        {
            flushNow();
        }
        return written;
    }

    /**
     * Makes room for a whole frame, flushing once if needed.
     */
    private boolean reserve(final int payloadLength)
    {
        final int frameLength = framing.frameLength(payloadLength);
        if (frameLength > writeBuffer.capacity())
        {
            throw new IllegalArgumentException("a frame of " + frameLength +
                " bytes can never fit the write buffer of " + writeBuffer.capacity() + " bytes");
        }
        if (state != OPEN)
        {
            return false;
        }
        if (frameLength > writeBuffer.remaining())
        {
            flushNow();
            if (state != OPEN)
            {
                return false;
            }
            if (frameLength > writeBuffer.remaining())
            {
                if (config.disconnectOnFullWriteBuffer())
                {
                    LOG.log(System.Logger.Level.WARNING, "connection " + id + " to " + remoteAddress +
                        ": write buffer of " + writeBuffer.capacity() + " bytes is full, disconnecting" +
                        " (turn disconnectOnFullWriteBuffer off to handle lagging in writeSpaceFreed)");
                    closeNow(CloseReason.WRITE_BUFFER_FULL);
                }
                return false;
            }
        }
        return true;
    }

    @Override
    public void endOfCycle()
    {
        endOfCycleQueued = false;
        if (resumeOwed)
        {
            resumeOwed = false;
            deliverAfterResume();
        }
        if (state == OPEN)
        {
            flushNow();
        }
    }

    @Override
    public void flush()
    {
        reactor.checkThread("Connection.flush");
        if (state == OPEN)
        {
            flushNow();
        }
    }

    private void flushNow()
    {
        if (writeBuffer.position() == 0 && !transport.hasPendingOutput())
        {
            return;
        }
        writeBuffer.flip();
        try
        {
            transport.write(channel, writeBuffer);
        }
        catch (final IOException ex)
        {
            writeBuffer.clear();
            fail(ioFailure(ex), ex);
            return;
        }
        if (writeBuffer.hasRemaining() || transport.hasPendingOutput())
        {
            writeBuffer.compact();
            if (!lagging)
            {
                lagging = true;
                key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
            }
        }
        else
        {
            writeBuffer.clear();
            if (lagging)
            {
                // A flush outside onWritable (end of cycle, an explicit flush, a write making room) may be
                // the one that drains a lagging buffer. OP_WRITE stays on so onWritable still tells the
                // handler, which may be waiting for writeSpaceFreed after a refused write.
                lagging = false;
                spaceFreedOwed = true;
            }
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
        return writeBuffer.remaining();
    }

    @Override
    public int writeBufferCapacity()
    {
        return writeBuffer.capacity();
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
            flushNow();
            if (state == OPEN && (writeBuffer.position() > 0 || transport.hasPendingOutput()) &&
                config.closeLingerMillis() > 0)
            {
                state = CLOSING;
                closingReason = reason;
                key.interestOps(SelectionKey.OP_WRITE);
                lingerTimer = reactor.schedule(config.closeLingerMillis(), this);
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
            LOG.log(System.Logger.Level.WARNING, "error callback of connection " + id + " threw", t);
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

    private void closeNow(final CloseReason reason)
    {
        if (state == CLOSED)
        {
            return;
        }
        final boolean orderly = (state == OPEN || state == CLOSING) && reason != CloseReason.IO_ERROR &&
            reason != CloseReason.TLS_ERROR;
        state = CLOSED;
        cancel(eventTimer);
        cancel(readTimer);
        cancel(connectTimer);
        cancel(lingerTimer);
        cancel(handshakeTimer);
        eventTimer = readTimer = connectTimer = lingerTimer = handshakeTimer = NO_TIMER;
        if (orderly && channel != null)
        {
            transport.shutdown(channel);
        }
        if (key != null)
        {
            key.cancel();
            key = null;
        }
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                LOG.log(System.Logger.Level.DEBUG, "closing connection " + id + " failed", ex);
            }
        }
        lagging = false;
        if (config.busyPoll())
        {
            reactor.removePoller(this);
        }
        // The owner first, as on open: a handler's closed() then sees its client closed and its server without it.
        owner.onClosed(this, reason);
        try
        {
            handler.closed(this, reason);
        }
        catch (final Throwable t)
        {
            LOG.log(System.Logger.Level.WARNING, "closed callback of connection " + id + " threw", t);
        }
    }

    @Override
    public void onReactorStop()
    {
        if (state != CLOSED)
        {
            closeNow(CloseReason.REACTOR_STOPPED);
        }
    }

    @Override
    public void setEventTimeout(final long delayMillis)
    {
        reactor.checkThread("Connection.setEventTimeout");
        cancel(eventTimer);
        eventTimer = state == OPEN ? reactor.schedule(delayMillis, this) : NO_TIMER;
    }

    @Override
    public void cancelEventTimeout()
    {
        reactor.checkThread("Connection.cancelEventTimeout");
        cancel(eventTimer);
        eventTimer = NO_TIMER;
    }

    @Override
    public void setReadTimeout(final long timeoutMillis)
    {
        reactor.checkThread("Connection.setReadTimeout");
        if (timeoutMillis < 0)
        {
            throw new IllegalArgumentException("read timeout must not be negative: " + timeoutMillis);
        }
        cancel(readTimer);
        readTimer = NO_TIMER;
        readTimeoutMillis = timeoutMillis;
        if (timeoutMillis > 0 && state == OPEN)
        {
            lastReadMillis = reactor.nowMillis();
            readTimer = reactor.schedule(timeoutMillis, this);
        }
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        try
        {
            if (timerId == eventTimer)
            {
                eventTimer = NO_TIMER;
                handler.eventTimeout(this, nowMillis);
            }
            else if (timerId == readTimer)
            {
                onReadTimer(nowMillis);
            }
            else if (timerId == connectTimer)
            {
                connectTimer = NO_TIMER;
                fail(CloseReason.CONNECT_FAILED,
                    new IOException("connect to " + remoteAddress + " timed out after " +
                    config.connectTimeoutMillis() + " ms"));
            }
            else if (timerId == handshakeTimer)
            {
                handshakeTimer = NO_TIMER;
                fail(CloseReason.TLS_ERROR, new javax.net.ssl.SSLException("handshake with " + remoteAddress +
                    " did not complete within " + config.handshakeTimeoutMillis() + " ms"));
            }
            else if (timerId == lingerTimer)
            {
                lingerTimer = NO_TIMER;
                LOG.log(System.Logger.Level.WARNING, "connection " + id + " to " + remoteAddress + ": " +
                    writeBuffer.position() + " buffered bytes not taken within " + config.closeLingerMillis() +
                    " ms of closing, dropped");
                closeNow(closingReason);
            }
        }
        catch (final Throwable t)
        {
            fail(CloseReason.HANDLER_ERROR, t);
        }
    }

    private void onReadTimer(final long nowMillis)
    {
        // Reads only stamp the time; the timer checks it, so a busy connection never touches the wheel.
        if (readsPaused)
        {
            // Not silence: this side is not reading. The clock starts again on resume.
            readTimer = reactor.schedule(readTimeoutMillis, this);
            return;
        }
        final long silentFor = nowMillis - lastReadMillis;
        if (silentFor >= readTimeoutMillis)
        {
            readTimer = reactor.schedule(readTimeoutMillis, this);
            lastReadMillis = nowMillis;
            handler.readTimeout(this, nowMillis);
        }
        else
        {
            readTimer = reactor.schedule(readTimeoutMillis - silentFor, this);
        }
    }

    private void cancel(final long timerId)
    {
        if (timerId != NO_TIMER)
        {
            reactor.cancelTimer(timerId);
        }
    }

    @Override
    public InetSocketAddress remoteAddress()
    {
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
            return channel != null && channel.isOpen() ? channel.getOption(option) : -1;
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
        return "Connection[" + id + ", " + remoteAddress + "]";
    }
}
