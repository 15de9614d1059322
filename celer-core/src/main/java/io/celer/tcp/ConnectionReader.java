package io.celer.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

import io.celer.framing.FramingException;
import io.celer.framing.RawFraming;

/**
 * The read side of a TCP connection: reads into a direct buffer, cuts it into messages with the framing, hands
 * each to the handler, and pauses and resumes reading.
 *
 * <p>Bytes that are not yet a whole message, or that came after a pause, stay in the buffer for the next read.
 * A connection that borrows per use takes the buffer from its server's pool for a read and gives it back once
 * nothing stays in it.
 *
 * <p>Steps only: the state they work on (the buffer, whether reading is paused, whether a delivery is owed) is
 * fields of the connection, so that an idle connection holds no reader object of its own, a header and a
 * reference back to the connection saved on each of thousands of them.
 */
final class ConnectionReader
{
    private ConnectionReader()
    {
    }

    /**
     * A new channel: nothing held, reading on.
     */
    static void reset(final TcpConnection connection)
    {
        connection.readBuffer.clear();
        connection.framing.reset();
        connection.readPaused = false;
        connection.resumeOwed = false;
    }

    /**
     * Gives the buffer back once the connection closed; no read can run after, so nothing touches it again.
     *
     * @return the buffer, or {@link ConnectionBuffers#NONE} when it was already given back.
     */
    static ByteBuffer withdraw(final TcpConnection connection)
    {
        final ByteBuffer lent = connection.readBuffer;
        connection.readBuffer = ConnectionBuffers.NONE;
        return lent;
    }

    /**
     * Whether a readiness event or a poll should read now.
     */
    static boolean isReading(final TcpConnection connection)
    {
        return connection.isOpen() && !connection.readPaused;
    }

    /**
     * Reads once from the socket (or only from the transport's buffers), delivers the messages, and goes on
     * while the transport still holds application bytes that the read buffer had no room for.
     *
     * @return whether anything was read.
     */
    static boolean read(final TcpConnection connection, final boolean fromSocket)
    {
        if (connection.buffers.perUse() && connection.readBuffer == ConnectionBuffers.NONE)
        {
            try
            {
                connection.readBuffer = connection.buffers.takeRead();
            }
            catch (final OutOfMemoryError ex)
            {
                connection.fail(CloseReason.OUT_OF_MEMORY, ex);
                return false;
            }
        }
        final Transport transport = connection.transport;
        boolean fromChannel = fromSocket;
        boolean delivered = false;
        do
        {
            final int read;
            try
            {
                read = transport.read(connection.channel, connection.readBuffer, fromChannel);
            }
            catch (final IOException ex)
            {
                connection.fail(TcpConnection.ioFailure(ex), ex);
                return false;
            }
            fromChannel = false;
            if (read < 0)
            {
                connection.close(CloseReason.PEER_CLOSED);
                return false;
            }
            if (read == 0)
            {
                break;
            }
            delivered = true;
            connection.counters.bytesIn.add(read);
            connection.bytesIn += read;
            ConnectionTimers.readAt(connection, connection.reactor.nowMillis());
            decode(connection);
            if (connection.isClosed())
            {
                return true;
            }
        }
        while (isReading(connection) && transport.hasBufferedInput());
        if (transport.hasPendingOutput() && connection.isOpen())
        {
            ConnectionWriter.flush(connection); // the transport answered the peer (a TLS key update, say)
        }
        if (delivered && connection.isOpen())
        {
            connection.handler.batchProcessed(connection);
        }
        giveBackIfEmpty(connection);
        return delivered;
    }

    /**
     * Borrowing per use, gives the buffer back once it holds nothing: an idle connection keeps none. Not once
     * closed: the close took it back already.
     */
    private static void giveBackIfEmpty(final TcpConnection connection)
    {
        final ByteBuffer buffer = connection.readBuffer;
        if (connection.buffers.perUse() && buffer.position() == 0 && buffer != ConnectionBuffers.NONE &&
            connection.isOpen())
        {
            connection.buffers.giveRead(buffer);
            connection.readBuffer = ConnectionBuffers.NONE;
        }
    }

    /**
     * Hands the buffer's whole messages to the handler and keeps the rest (a partial message, or what came after
     * a pause) for later.
     */
    private static void decode(final TcpConnection connection)
    {
        final ByteBuffer buffer = connection.readBuffer;
        buffer.flip();
        connection.framing.decode(buffer, connection);
        if (connection.isClosed())
        {
            return;
        }
        if (!buffer.hasRemaining())
        {
            buffer.clear();
        }
        else if (buffer.position() == 0 && buffer.limit() == buffer.capacity())
        {
            throw new FramingException("read buffer of " + buffer.capacity() +
                " bytes is full and the handler consumed none of it");
        }
        else
        {
            buffer.compact();
        }
    }

    /**
     * One decoded message to the handler, and what it left of a raw read to the handler it was handed to.
     *
     * @return whether to go on decoding: reading goes on.
     */
    static boolean deliver(final TcpConnection connection, final ByteBuffer message)
    {
        connection.counters.messagesIn.increment();
        Handler current = connection.handler;
        current.message(connection, message);
        // Only raw framing keeps what a handler left, so only there can a new handler take the rest of a read.
        while (connection.handler != current && message.hasRemaining() && isReading(connection) &&
            connection.framing instanceof RawFraming)
        {
            // Handed over inside its call: what the old handler left of this read belongs to the new one.
            current = connection.handler;
            current.message(connection, message);
        }
        return isReading(connection);
    }

    static void pause(final TcpConnection connection)
    {
        if (!isReading(connection))
        {
            return;
        }
        connection.readPaused = true;
        connection.counters.readPauses.increment();
        final SelectionKey key = connection.key;
        key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
        if (connection.config.busyPoll())
        {
            connection.reactor.internals().removePoller(connection);
        }
    }

    /**
     * Reads again; what was read before the pause is delivered at the end of the cycle.
     *
     * @return whether a delivery is owed, for the connection to queue its end-of-cycle task.
     */
    static boolean resume(final TcpConnection connection)
    {
        if (!connection.readPaused)
        {
            return false;
        }
        connection.readPaused = false;
        if (!connection.isOpen())
        {
            return false;
        }
        ConnectionTimers.readAt(connection, connection.reactor.nowMillis());
        final SelectionKey key = connection.key;
        key.interestOps(key.interestOps() | SelectionKey.OP_READ);
        if (connection.config.busyPoll())
        {
            connection.reactor.internals().addPoller(connection);
        }
        // Not now: the caller may be inside this connection's own message callback, in the middle of a decode.
        connection.resumeOwed = true;
        return true;
    }

    /**
     * At the end of the cycle after a resume: delivers whole messages left in the buffer, then the transport's.
     */
    static void deliverAfterResume(final TcpConnection connection)
    {
        if (!connection.resumeOwed)
        {
            return;
        }
        connection.resumeOwed = false;
        if (!isReading(connection))
        {
            return;
        }
        try
        {
            final int held = connection.readBuffer.position();
            if (held > 0)
            {
                decode(connection);
            }
            if (isReading(connection) && connection.transport.hasBufferedInput())
            {
                read(connection, false); // tells the handler the batch ended
            }
            else if (connection.isOpen() && connection.readBuffer.position() < held)
            {
                connection.handler.batchProcessed(connection);
            }
            giveBackIfEmpty(connection);
        }
        catch (final Throwable t)
        {
            connection.failed(t);
        }
    }
}
