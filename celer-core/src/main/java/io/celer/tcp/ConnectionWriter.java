package io.celer.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

import io.celer.reactor.internal.Logs;

/**
 * The write side of a TCP connection: a direct buffer that takes whole frames or nothing, its flush to the
 * transport, lagging (OP_WRITE while the socket does not take everything) and the write space freed after it.
 * A connection that borrows per use takes the buffer from its server's pool for its first write of a cycle and
 * gives it back once the socket took everything.
 *
 * <p>Steps only: the state they work on (the buffer, whether the socket lags, whether the handler is owed a
 * {@code writable}) is fields of the connection, so that an idle connection holds no writer object of its own.
 */
final class ConnectionWriter
{
    private static final System.Logger LOG = System.getLogger(TcpConnection.class.getName());

    private ConnectionWriter()
    {
    }

    /**
     * Gives the buffer back once the connection closed. A write through a handle kept after the close is
     * refused before it touches a buffer (the connection is not open), and one that slipped past would meet
     * {@link ConnectionBuffers#NONE}, which refuses it too: the buffer, lent to the next connection, stays untouched.
     *
     * @return the buffer, or {@link ConnectionBuffers#NONE} when it was already given back.
     */
    static ByteBuffer withdraw(final TcpConnection connection)
    {
        final ByteBuffer lent = connection.writeBuffer;
        connection.writeBuffer = ConnectionBuffers.NONE;
        return lent;
    }

    /**
     * A new channel: nothing buffered, nothing owed.
     */
    static void reset(final TcpConnection connection)
    {
        connection.writeBuffer.clear();
        connection.lagging = false;
        connection.spaceFreedOwed = false;
    }

    static boolean put(final TcpConnection connection, final ByteBuffer message)
    {
        if (!beginFrame(connection, message.remaining()))
        {
            return false;
        }
        connection.writeBuffer.put(message);
        connection.framing.writeTrailer(connection.writeBuffer);
        return true;
    }

    static boolean put(final TcpConnection connection, final byte[] message, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || offset + length > message.length)
        {
            throw new IndexOutOfBoundsException(
                "offset " + offset + " and length " + length + " outside an array of " + message.length);
        }
        if (!beginFrame(connection, length))
        {
            return false;
        }
        connection.writeBuffer.put(message, offset, length);
        connection.framing.writeTrailer(connection.writeBuffer);
        return true;
    }

    static boolean put(final TcpConnection connection, final CharSequence message)
    {
        final int length = message.length();
        if (!beginFrame(connection, length))
        {
            return false;
        }
        final ByteBuffer buffer = connection.writeBuffer;
        for (int i = 0; i < length; i++)
        {
            final char c = message.charAt(i);
            buffer.put(c < 256 ? (byte)c : (byte)'?');
        }
        connection.framing.writeTrailer(buffer);
        return true;
    }

    /**
     * Makes room for a whole frame and writes its header, or refuses it.
     */
    private static boolean beginFrame(final TcpConnection connection, final int payloadLength)
    {
        connection.reactor.checkThread("Connection.write");
        if (!reserve(connection, payloadLength))
        {
            return false;
        }
        connection.framing.writeHeader(connection.writeBuffer, payloadLength);
        connection.counters.messagesOut.increment();
        return true;
    }

    /**
     * Makes room for a whole frame, flushing once if needed.
     */
    private static boolean reserve(final TcpConnection connection, final int payloadLength)
    {
        final int frameLength = connection.framing.frameLength(payloadLength);
        if (frameLength > capacity(connection))
        {
            throw new IllegalArgumentException("a frame of " + frameLength +
                " bytes can never fit the write buffer of " + capacity(connection) + " bytes");
        }
        if (!connection.isOpen())
        {
            return false;
        }
        if (!borrow(connection))
        {
            return false;
        }
        if (frameLength > connection.writeBuffer.remaining())
        {
            flush(connection);
            // The flush gave the buffer back if the socket took everything.
            if (!connection.isOpen() || !borrow(connection))
            {
                return false;
            }
            if (frameLength > connection.writeBuffer.remaining())
            {
                connection.counters.writesRefused.increment();
                if (connection.config.disconnectOnFullWriteBuffer())
                {
                    Logs.log(LOG, System.Logger.Level.WARNING, "connection " + connection.id() + " to " +
                        connection.remoteAddress() + ": write buffer of " + connection.writeBuffer.capacity() +
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
    private static boolean borrow(final TcpConnection connection)
    {
        if (connection.buffers.perUse() && connection.writeBuffer == ConnectionBuffers.NONE)
        {
            try
            {
                connection.writeBuffer = connection.buffers.takeWrite();
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
    static void flush(final TcpConnection connection)
    {
        final Transport transport = connection.transport;
        if (connection.writeBuffer.position() == 0 && !transport.hasPendingOutput())
        {
            giveBackIfEmpty(connection); // one borrowed before the connection opened (a TLS handshake's) goes back
            return;
        }
        if (connection.writeBuffer == ConnectionBuffers.NONE)
        {
            if (connection.isClosed())
            {
                return;
            }
            // Only the transport has output (a TLS record or alert): what it leaves may need the buffer's room.
            if (!borrow(connection))
            {
                return;
            }
        }
        final ByteBuffer buffer = connection.writeBuffer;
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
            if (!connection.lagging)
            {
                connection.lagging = true;
                connection.counters.lagging.increment();
                final SelectionKey key = connection.key;
                key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
                ConnectionTimers.startSend(connection, connection.reactor.nowMillis());
            }
            else if (progress)
            {
                ConnectionTimers.sentAt(connection, connection.reactor.nowMillis());
            }
        }
        else
        {
            buffer.clear();
            giveBackIfEmpty(connection);
            if (connection.lagging)
            {
                // A flush outside onWritable (end of cycle, an explicit flush, a write making room) may be
                // the one that drains a lagging buffer. OP_WRITE stays on so onWritable still tells the
                // handler, which may be waiting for writable after a refused write.
                connection.lagging = false;
                connection.counters.lagging.decrement();
                connection.spaceFreedOwed = true;
                ConnectionTimers.stopSend(connection);
            }
        }
    }

    /**
     * Borrowing per use, gives the empty buffer back while the connection is open; a closing one keeps it for
     * the close to take back.
     */
    private static void giveBackIfEmpty(final TcpConnection connection)
    {
        final ByteBuffer buffer = connection.writeBuffer;
        if (connection.buffers.perUse() && buffer != ConnectionBuffers.NONE && buffer.position() == 0 &&
            connection.isOpen())
        {
            connection.buffers.giveWrite(buffer);
            connection.writeBuffer = ConnectionBuffers.NONE;
        }
    }

    /**
     * The socket of an open connection takes bytes again: flushes, and tells the handler of the space freed.
     */
    static void onWritable(final TcpConnection connection)
    {
        final int freeBefore = remaining(connection);
        flush(connection);
        if (!connection.isOpen())
        {
            return;
        }
        if (!connection.lagging)
        {
            final SelectionKey key = connection.key;
            key.interestOps(key.interestOps() & ~SelectionKey.OP_WRITE);
        }
        if (connection.spaceFreedOwed || remaining(connection) > freeBefore)
        {
            connection.spaceFreedOwed = false;
            connection.handler.writable(connection, remaining(connection));
        }
    }

    /**
     * Whether everything written has reached the socket, the transport's own output included.
     */
    static boolean isEmpty(final TcpConnection connection)
    {
        return connection.writeBuffer.position() == 0 && !connection.transport.hasPendingOutput();
    }

    /**
     * The bytes written but not yet taken by the socket.
     */
    static int buffered(final TcpConnection connection)
    {
        return connection.writeBuffer.position();
    }

    static int remaining(final TcpConnection connection)
    {
        final ByteBuffer buffer = connection.writeBuffer;
        return connection.buffers.perUse() && buffer == ConnectionBuffers.NONE && connection.isOpen()
            ? capacity(connection) : buffer.remaining();
    }

    static int capacity(final TcpConnection connection)
    {
        return connection.buffers.writeSize();
    }

    static void closed(final TcpConnection connection)
    {
        if (connection.lagging)
        {
            connection.counters.lagging.decrement();
        }
        connection.lagging = false;
    }
}
