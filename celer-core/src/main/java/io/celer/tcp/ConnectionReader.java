package io.celer.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

import io.celer.framing.Framing;
import io.celer.framing.FramingException;
import io.celer.framing.MessageSink;
import io.celer.framing.RawFraming;

/**
 * The read side of one TCP connection: reads into a direct buffer, cuts it into messages with the framing,
 * hands each to the handler, and pauses and resumes reading.
 *
 * <p>Bytes that are not yet a whole message, or that came after a pause, stay in the buffer for the next read.
 * A connection that borrows per use takes the buffer from its server's pool for a read and gives it back once
 * nothing stays in it.
 */
final class ConnectionReader implements MessageSink
{
    /** Its reactor, timers, writer and buffers too, reached through it: see TcpConnection. */
    private final TcpConnection connection;
    private final Framing framing;
    private final boolean busyPoll;
    /** Only raw framing keeps what a handler left, so only there can a new handler take the rest of a read. */
    private final boolean raw;
    private final boolean perUse;
    /**
     * Lent by the connection while it lives, or, borrowing per use, while it holds bytes;
     * {@link ConnectionBuffers#NONE} otherwise.
     */
    private ByteBuffer buffer = ConnectionBuffers.NONE;
    private boolean paused;
    private boolean resumeOwed;

    ConnectionReader(final TcpConnection connection, final Framing framing)
    {
        this.connection = connection;
        this.perUse = connection.buffers.perUse();
        this.framing = framing;
        this.raw = framing instanceof RawFraming;
        this.busyPoll = connection.config.busyPoll();
    }

    /**
     * The buffer to read into from now on.
     */
    void lend(final ByteBuffer readBuffer)
    {
        buffer = readBuffer;
    }

    boolean hasBuffer()
    {
        return buffer != ConnectionBuffers.NONE;
    }

    /**
     * Gives the buffer back once the connection closed; no read can run after, so nothing touches it again.
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
     * A new channel: nothing held, reading on.
     */
    void reset()
    {
        buffer.clear();
        framing.reset();
        paused = false;
        resumeOwed = false;
    }

    /**
     * Whether a readiness event or a poll should read now.
     */
    boolean isReading()
    {
        return connection.isOpen() && !paused;
    }

    boolean isPaused()
    {
        return paused;
    }

    /**
     * Reads once from the socket (or only from the transport's buffers), delivers the messages, and goes on
     * while the transport still holds application bytes that the read buffer had no room for.
     *
     * @return whether anything was read.
     */
    boolean read(final boolean fromSocket)
    {
        if (perUse && buffer == ConnectionBuffers.NONE)
        {
            try
            {
                buffer = connection.buffers.takeRead();
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
                read = transport.read(connection.channel, buffer, fromChannel);
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
            connection.timers.readAt(connection.reactor.nowMillis());
            decode();
            if (connection.isClosed())
            {
                return true;
            }
        }
        while (isReading() && transport.hasBufferedInput());
        if (transport.hasPendingOutput() && connection.isOpen())
        {
            connection.writer.flush(); // the transport answered the peer (a TLS key update, say) and must be heard
        }
        if (delivered && connection.isOpen())
        {
            connection.handler.batchProcessed(connection);
        }
        giveBackIfEmpty();
        return delivered;
    }

    /**
     * Borrowing per use, gives the buffer back once it holds nothing: an idle connection keeps none. Not once
     * closed: the close took it back already.
     */
    private void giveBackIfEmpty()
    {
        if (perUse && buffer.position() == 0 && buffer != ConnectionBuffers.NONE && connection.isOpen())
        {
            connection.buffers.giveRead(buffer);
            buffer = ConnectionBuffers.NONE;
        }
    }

    /**
     * Hands the buffer's whole messages to the handler and keeps the rest (a partial message, or what came after
     * a pause) for later.
     */
    private void decode()
    {
        buffer.flip();
        framing.decode(buffer, this);
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

    @Override
    public boolean onMessage(final ByteBuffer message)
    {
        connection.counters.messagesIn.increment();
        Handler current = connection.handler;
        current.message(connection, message);
        while (raw && connection.handler != current && message.hasRemaining() && isReading())
        {
            // Handed over inside its call: what the old handler left of this read belongs to the new one.
            current = connection.handler;
            current.message(connection, message);
        }
        return isReading();
    }

    void pause()
    {
        if (!isReading())
        {
            return;
        }
        paused = true;
        connection.counters.readPauses.increment();
        final SelectionKey key = connection.key;
        key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
        if (busyPoll)
        {
            connection.reactor.internals().removePoller(connection);
        }
    }

    /**
     * Reads again; what was read before the pause is delivered at the end of the cycle.
     *
     * @return whether a delivery is owed, for the connection to queue its end-of-cycle task.
     */
    boolean resume()
    {
        if (!paused)
        {
            return false;
        }
        paused = false;
        if (!connection.isOpen())
        {
            return false;
        }
        connection.timers.readAt(connection.reactor.nowMillis());
        final SelectionKey key = connection.key;
        key.interestOps(key.interestOps() | SelectionKey.OP_READ);
        if (busyPoll)
        {
            connection.reactor.internals().addPoller(connection);
        }
        // Not now: the caller may be inside this connection's own message callback, in the middle of a decode.
        resumeOwed = true;
        return true;
    }

    /**
     * At the end of the cycle after a resume: delivers whole messages left in the buffer, then the transport's.
     */
    void deliverAfterResume()
    {
        if (!resumeOwed)
        {
            return;
        }
        resumeOwed = false;
        if (!isReading())
        {
            return;
        }
        try
        {
            final int held = buffer.position();
            if (held > 0)
            {
                decode();
            }
            if (isReading() && connection.transport.hasBufferedInput())
            {
                read(false); // tells the handler the batch ended
            }
            else if (connection.isOpen() && buffer.position() < held)
            {
                connection.handler.batchProcessed(connection);
            }
            giveBackIfEmpty();
        }
        catch (final Throwable t)
        {
            connection.failed(t);
        }
    }
}
