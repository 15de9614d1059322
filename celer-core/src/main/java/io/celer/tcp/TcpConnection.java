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
import io.celer.reactor.Reactor;
import io.celer.reactor.Selectable;
import io.celer.reactor.TimerCallback;

/**
 * A TCP connection on a reactor: its buffers, framing, timers and the all-or-nothing write path.
 */
final class TcpConnection implements Connection, Selectable, MessageSink, CycleTask, TimerCallback
{
    private static final System.Logger LOG = System.getLogger(TcpConnection.class.getName());
    private static final AtomicLong IDS = new AtomicLong();
    private static final long NO_TIMER = Long.MIN_VALUE;

    private static final int CLOSED = 0;
    private static final int CONNECTING = 1;
    private static final int OPEN = 2;
    private static final int CLOSING = 3;

    private final Reactor reactor;
    private final TcpConfig config;
    private final Handler handler;
    private final ConnectionOwner owner;
    private final Framing framing;
    private final ByteBuffer readBuffer;
    private final ByteBuffer writeBuffer;

    private SocketChannel channel;
    private SelectionKey key;
    private InetSocketAddress remoteAddress;
    private long id;
    private int state = CLOSED;
    private boolean lagging;
    private boolean spaceFreedOwed;
    private boolean flushQueued;
    private CloseReason closingReason;
    private long eventTimer = NO_TIMER;
    private long readTimer = NO_TIMER;
    private long connectTimer = NO_TIMER;
    private long lingerTimer = NO_TIMER;
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
        begin(acceptedChannel);
        remoteAddress = (InetSocketAddress)acceptedChannel.getRemoteAddress();
        key = reactor.register(acceptedChannel, SelectionKey.OP_READ, this);
        established();
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
            begin(SocketChannel.open());
            if (address.isUnresolved())
            {
                throw new IOException("cannot resolve " + address.getHostString());
            }
            if (channel.connect(address))
            {
                key = reactor.register(channel, SelectionKey.OP_READ, this);
                established();
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

    private void begin(final SocketChannel newChannel) throws IOException
    {
        id = IDS.incrementAndGet();
        channel = newChannel;
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
        flushQueued = false;
        readTimeoutMillis = 0;
    }

    private void established()
    {
        state = OPEN;
        lastReadMillis = reactor.nowMillis();
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
            if ((ready & SelectionKey.OP_WRITE) != 0)
            {
                onWritable();
            }
            if ((ready & SelectionKey.OP_READ) != 0 && state == OPEN)
            {
                onReadable();
            }
        }
        catch (final Throwable t)
        {
            fail(t instanceof FramingException ? CloseReason.FRAMING_ERROR : CloseReason.HANDLER_ERROR, t);
        }
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
        established();
    }

    private void onReadable()
    {
        final int read;
        try
        {
            read = channel.read(readBuffer);
        }
        catch (final IOException ex)
        {
            fail(CloseReason.IO_ERROR, ex);
            return;
        }
        if (read < 0)
        {
            close(CloseReason.PEER_CLOSED);
            return;
        }
        if (read == 0)
        {
            return;
        }
        lastReadMillis = reactor.nowMillis();
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
        handler.batchProcessed(this);
    }

    @Override
    public boolean onMessage(final ByteBuffer message)
    {
        handler.message(this, message);
        return state == OPEN;
    }

    private void onWritable()
    {
        final int freeBefore = writeBuffer.remaining();
        flushNow();
        if (state == CLOSING && writeBuffer.position() == 0)
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

    @Override
    public boolean write(final byte[] message)
    {
        return write(message, 0, message.length);
    }

    @Override
    public boolean write(final byte[] message, final int offset, final int length)
    {
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

    @Override
    public boolean write(final CharSequence message)
    {
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

    @Override
    public boolean send(final ByteBuffer message)
    {
        return flushed(write(message));
    }

    @Override
    public boolean send(final byte[] message)
    {
        return flushed(write(message));
    }

    @Override
    public boolean send(final byte[] message, final int offset, final int length)
    {
        return flushed(write(message, offset, length));
    }

    @Override
    public boolean send(final CharSequence message)
    {
        return flushed(write(message));
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
     * Makes room for a whole frame, flushing once if needed; queues the end-of-cycle flush.
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
        if (!flushQueued)
        {
            flushQueued = true;
            reactor.runAtEndOfCycle(this);
        }
        return true;
    }

    @Override
    public void endOfCycle()
    {
        flushQueued = false;
        if (state == OPEN)
        {
            flushNow();
        }
    }

    @Override
    public void flush()
    {
        if (state == OPEN)
        {
            flushNow();
        }
    }

    private void flushNow()
    {
        if (writeBuffer.position() == 0)
        {
            return;
        }
        writeBuffer.flip();
        try
        {
            channel.write(writeBuffer);
        }
        catch (final IOException ex)
        {
            writeBuffer.clear();
            fail(CloseReason.IO_ERROR, ex);
            return;
        }
        if (writeBuffer.hasRemaining())
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
            if (state == OPEN && writeBuffer.position() > 0 && config.closeLingerMillis() > 0)
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
        state = CLOSED;
        cancel(eventTimer);
        cancel(readTimer);
        cancel(connectTimer);
        cancel(lingerTimer);
        eventTimer = readTimer = connectTimer = lingerTimer = NO_TIMER;
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
        try
        {
            handler.closed(this, reason);
        }
        catch (final Throwable t)
        {
            LOG.log(System.Logger.Level.WARNING, "closed callback of connection " + id + " threw", t);
        }
        owner.onClosed(this, reason);
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
        cancel(eventTimer);
        eventTimer = state == OPEN ? reactor.schedule(delayMillis, this) : NO_TIMER;
    }

    @Override
    public void cancelEventTimeout()
    {
        cancel(eventTimer);
        eventTimer = NO_TIMER;
    }

    @Override
    public void setReadTimeout(final long timeoutMillis)
    {
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
