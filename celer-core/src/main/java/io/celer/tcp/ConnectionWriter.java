package io.celer.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

import io.celer.framing.Framing;
import io.celer.reactor.internal.Logs;

/**
 * The write side of one TCP connection: a direct buffer that takes whole frames or nothing, its flush to the
 * transport, lagging (OP_WRITE while the socket does not take everything) and the write space freed after it.
 * A connection that borrows per use takes the buffer from its server's pool for its first write of a cycle and
 * gives it back once the socket took everything.
 */
final class ConnectionWriter
{
    private static final System.Logger LOG = System.getLogger(TcpConnection.class.getName());

    /** Its reactor, timers and buffers too, reached through it: see TcpConnection. */
    private final TcpConnection connection;
    private final Framing framing;
    private final boolean disconnectOnFullBuffer;
    private final int capacity;
    private final boolean perUse;
    /**
     * Lent by the connection while it lives, or, borrowing per use, while it holds bytes;
     * {@link ConnectionBuffers#NONE} otherwise.
     */
    private ByteBuffer buffer = ConnectionBuffers.NONE;
    private boolean lagging;
    private boolean spaceFreedOwed;

    ConnectionWriter(final TcpConnection connection, final Framing framing)
    {
        this.perUse = connection.buffers.perUse();
        this.connection = connection;
        this.framing = framing;
        this.disconnectOnFullBuffer = connection.config.disconnectOnFullWriteBuffer();
        this.capacity = connection.config.writeBufferSize();
    }

    /**
     * The buffer to write into from now on.
     */
    void lend(final ByteBuffer writeBuffer)
    {
        buffer = writeBuffer;
    }

    /**
     * Gives the buffer back once the connection closed. A write through a handle kept after the close is
     * refused before it touches a buffer (the connection is not open), and one that slipped past would meet
     * {@link ConnectionBuffers#NONE}, which refuses it too: the buffer, lent to the next connection, stays untouched.
     *
     * @return the buffer, or {@link ConnectionBuffers#NONE} when it was already given back.
     */
    ByteBuffer withdraw()
    {
        final ByteBuffer lent = buffer;
        buffer = ConnectionBuffers.NONE;
        return lent;
    }

    /**
     * A new channel: nothing buffered, nothing owed.
     */
    void reset()
    {
        buffer.clear();
        lagging = false;
        spaceFreedOwed = false;
    }

    boolean put(final ByteBuffer message)
    {
        if (!beginFrame(message.remaining()))
        {
            return false;
        }
        buffer.put(message);
        framing.writeTrailer(buffer);
        return true;
    }

    boolean put(final byte[] message, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || offset + length > message.length)
        {
            throw new IndexOutOfBoundsException(
                "offset " + offset + " and length " + length + " outside an array of " + message.length);
        }
        if (!beginFrame(length))
        {
            return false;
        }
        buffer.put(message, offset, length);
        framing.writeTrailer(buffer);
        return true;
    }

    boolean put(final CharSequence message)
    {
        final int length = message.length();
        if (!beginFrame(length))
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            final char c = message.charAt(i);
            buffer.put(c < 256 ? (byte)c : (byte)'?');
        }
        framing.writeTrailer(buffer);
        return true;
    }

    /**
     * Makes room for a whole frame and writes its header, or refuses it.
     */
    private boolean beginFrame(final int payloadLength)
    {
        connection.reactor.checkThread("Connection.write");
        if (!reserve(payloadLength))
        {
            return false;
        }
        framing.writeHeader(buffer, payloadLength);
        connection.counters.messagesOut.increment();
        return true;
    }

    /**
     * Makes room for a whole frame, flushing once if needed.
     */
    private boolean reserve(final int payloadLength)
    {
        final int frameLength = framing.frameLength(payloadLength);
        if (frameLength > capacity)
        {
            throw new IllegalArgumentException("a frame of " + frameLength +
                " bytes can never fit the write buffer of " + capacity + " bytes");
        }
        if (!connection.isOpen())
        {
            return false;
        }
        if (!borrow())
        {
            return false;
        }
        if (frameLength > buffer.remaining())
        {
            flush();
            // The flush gave the buffer back if the socket took everything.
            if (!connection.isOpen() || !borrow())
            {
                return false;
            }
            if (frameLength > buffer.remaining())
            {
                connection.counters.writesRefused.increment();
                if (disconnectOnFullBuffer)
                {
                    Logs.log(LOG, System.Logger.Level.WARNING, "connection " + connection.id() + " to " +
                        connection.remoteAddress() + ": write buffer of " + buffer.capacity() +
                        " bytes is full, disconnecting" +
                        " (turn disconnectOnFullWriteBuffer off to handle lagging in writable)");
                    connection.closeNow(CloseReason.WRITE_BUFFER_FULL);
                }
                return false;
            }
        }
        return true;
    }

    /**
     * Borrowing per use, takes a buffer to write into unless it holds one.
     *
     * @return false when there was no memory for one: the connection closed.
     */
    private boolean borrow()
    {
        if (perUse && buffer == ConnectionBuffers.NONE)
        {
            try
            {
                buffer = connection.buffers.takeWrite();
            }
            catch (final OutOfMemoryError ex)
            {
                connection.fail(CloseReason.OUT_OF_MEMORY, ex);
                return false;
            }
        }
        return true;
    }

    /**
     * Hands the buffer to the transport; what the socket does not take stays, and OP_WRITE asks for more room.
     */
    void flush()
    {
        final Transport transport = connection.transport;
        if (buffer.position() == 0 && !transport.hasPendingOutput())
        {
            giveBackIfEmpty(); // one borrowed before the connection opened (a TLS handshake's) goes back now
            return;
        }
        if (buffer == ConnectionBuffers.NONE)
        {
            if (connection.isClosed())
            {
                return;
            }
            // Only the transport has output (a TLS record or alert): what it leaves may need the buffer's room.
            if (!borrow())
            {
                return;
            }
        }
        buffer.flip();
        final int waiting = buffer.remaining();
        try
        {
            transport.write(connection.channel, buffer);
            final int written = waiting - buffer.remaining();
            connection.counters.bytesOut.add(written);
            connection.bytesOut += written;
        }
        catch (final IOException ex)
        {
            buffer.clear();
            connection.fail(TcpConnection.ioFailure(ex), ex);
            return;
        }
        if (buffer.hasRemaining() || transport.hasPendingOutput())
        {
            final boolean progress = buffer.remaining() < waiting;
            buffer.compact();
            if (!lagging)
            {
                lagging = true;
                connection.counters.lagging.increment();
                final SelectionKey key = connection.key;
                key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
                connection.timers.startSend(connection.reactor.nowMillis());
            }
            else if (progress)
            {
                connection.timers.sentAt(connection.reactor.nowMillis());
            }
        }
        else
        {
            buffer.clear();
            giveBackIfEmpty();
            if (lagging)
            {
                // A flush outside onWritable (end of cycle, an explicit flush, a write making room) may be
                // the one that drains a lagging buffer. OP_WRITE stays on so onWritable still tells the
                // handler, which may be waiting for writable after a refused write.
                lagging = false;
                connection.counters.lagging.decrement();
                spaceFreedOwed = true;
                connection.timers.stopSend();
            }
        }
    }

    /**
     * Borrowing per use, gives the empty buffer back while the connection is open; a closing one keeps it for
     * the close to take back.
     */
    private void giveBackIfEmpty()
    {
        if (perUse && buffer != ConnectionBuffers.NONE && buffer.position() == 0 && connection.isOpen())
        {
            connection.buffers.giveWrite(buffer);
            buffer = ConnectionBuffers.NONE;
        }
    }

    /**
     * The socket of an open connection takes bytes again: flushes, and tells the handler of the space freed.
     */
    void onWritable()
    {
        final int freeBefore = remaining();
        flush();
        if (!connection.isOpen())
        {
            return;
        }
        if (!lagging)
        {
            final SelectionKey key = connection.key;
            key.interestOps(key.interestOps() & ~SelectionKey.OP_WRITE);
        }
        if (spaceFreedOwed || remaining() > freeBefore)
        {
            spaceFreedOwed = false;
            connection.handler.writable(connection, remaining());
        }
    }

    /**
     * Whether everything written has reached the socket, the transport's own output included.
     */
    boolean isEmpty()
    {
        return buffer.position() == 0 && !connection.transport.hasPendingOutput();
    }

    /**
     * The bytes written but not yet taken by the socket.
     */
    int buffered()
    {
        return buffer.position();
    }

    boolean isLagging()
    {
        return lagging;
    }

    int remaining()
    {
        return perUse && buffer == ConnectionBuffers.NONE && connection.isOpen() ? capacity : buffer.remaining();
    }

    int capacity()
    {
        return capacity;
    }

    void closed()
    {
        if (lagging)
        {
            connection.counters.lagging.decrement();
        }
        lagging = false;
    }
}
