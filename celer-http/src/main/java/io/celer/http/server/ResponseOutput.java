package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.reactor.internal.LargeBufferBudget;
import io.celer.tcp.Connection;

/**
 * Puts response bytes on a connection in request order, with bounded buffering: bytes of the oldest
 * outstanding response go to the connection (and what it cannot take now waits in a backlog), bytes of later
 * responses answered early are parked until their turn.
 *
 * <p>Each buffer is borrowed from the server's {@link ConnectionRecycler} when bytes must wait and given back once
 * it is empty, reserved in the reactor's {@link LargeBufferBudget} meanwhile: when the reactor's connections hold too much already, the buffer is not
 * lent and the bytes overflow (the connection closes), counted as a refusal. An idle connection holds none, and
 * a steady load borrows what earlier ones gave back.
 *
 * <p>It is itself lent, with its {@link ResponseTimer}, by the recycler to a connection while that connection has
 * a response in flight, bytes waiting or responses to time: between requests a keep-alive connection holds
 * neither.
 */
final class ResponseOutput
{
    private static final int MAX_SEGMENTS = 256;

    private Connection connection;
    private final ResponseTimer timer;
    private final int capacity;
    private final LargeBufferBudget budget;
    /** Where the buffers come from and go back to, so that lending them per use makes no garbage. */
    private final ConnectionRecycler recycler;
    /** Bytes of the two buffers reserved in the budget. */
    private long reserved;
    private boolean refused;
    // Made with the parked buffer: only a connection whose responses come out of turn needs them.
    private int[] segmentSequence;
    private int[] segmentOffset;
    private int[] segmentLength;

    private ByteBuffer backlog;
    private ByteBuffer parked;
    private int segments;
    private int liveSegments;
    private boolean overflowed;

    ResponseOutput(final Reactor reactor, final int capacity, final ConnectionRecycler recycler)
    {
        this.capacity = capacity;
        this.recycler = recycler;
        this.budget = reactor.internals().largeBuffers();
        this.timer = new ResponseTimer(reactor, this);
    }

    /** Serves a connection's pipeline until {@link #unbind}; it holds no buffer and no pending response. */
    void bind(final Connection connection, final ResponsePipeline pipeline)
    {
        this.connection = connection;
        refused = false;
        overflowed = false;
        segments = 0; // a connection that closed with responses parked left its segments
        liveSegments = 0;
        timer.bind(connection, pipeline);
    }

    /** Back to the recycler: it refers to no connection, so that a closed one is not kept alive through it. */
    void unbind()
    {
        connection = null;
        timer.bind(null, null);
    }

    /** Times the responses of the connection it serves. */
    ResponseTimer timer()
    {
        return timer;
    }

    /** Whether it holds nothing of its connection: no buffer, no response waiting to be timed. */
    boolean isIdle()
    {
        return backlog == null && parked == null && timer.isIdle();
    }

    /** A buffer of the capacity, reserved in the budget; null, the bytes overflowing, when it is spent. */
    private ByteBuffer reserveBuffer()
    {
        if (!budget.reserve(capacity))
        {
            refused = true;
            overflowed = true;
            return null;
        }
        reserved += capacity;
        return recycler.takeResponseBuffer();
    }

    /** The connection is done with its buffers: they go back to the pool, their reservation to the budget. */
    void release()
    {
        if (backlog != null)
        {
            backlog = giveBack(backlog);
        }
        if (parked != null)
        {
            parked = giveBack(parked);
        }
        budget.release(reserved);
        reserved = 0;
    }

    /** Whether an overflow came from the reactor's budget, spent, rather than from this connection's bound. */
    boolean refusedByBudget()
    {
        return refused;
    }

    /** Whether bytes wait for the connection to take them. */
    boolean hasBacklog()
    {
        return backlog != null && backlog.position() > 0;
    }

    /** Whether more bytes were offered than the buffers hold; the connection must close. */
    boolean overflowed()
    {
        return overflowed;
    }

    /**
     * Bytes a response may still hand over without overflowing.
     *
     * @param inTurn whether the response is the oldest outstanding one.
     * @return bytes.
     */
    int room(final boolean inTurn)
    {
        if (inTurn)
        {
            return hasBacklog() ? capacity - backlog.position() : capacity + connection.writeBufferRemaining();
        }
        return liveSegments == MAX_SEGMENTS ? 0 : capacity - (parked == null ? 0 : parked.position());
    }

    /**
     * Hands over bytes of one response.
     *
     * @param sequence the response's request sequence, modulo 2^31.
     * @param inTurn   whether it is the oldest outstanding response.
     * @param bytes    between position and limit, all taken.
     * @return false on overflow (bytes dropped).
     */
    boolean offer(final int sequence, final boolean inTurn, final ByteBuffer bytes)
    {
        if (inTurn)
        {
            return send(bytes);
        }
        if (!parkSegment(sequence, bytes.remaining()))
        {
            bytes.position(bytes.limit());
            return false;
        }
        parked.put(bytes);
        return true;
    }

    /**
     * Hands over bytes of one response from an array.
     *
     * @param sequence the response's request sequence, modulo 2^31.
     * @param inTurn   whether it is the oldest outstanding response.
     * @param bytes    the array.
     * @param offset   first byte.
     * @param length   bytes.
     * @return false on overflow (bytes dropped).
     */
    boolean offer(final int sequence, final boolean inTurn, final byte[] bytes, final int offset, final int length)
    {
        if (inTurn)
        {
            int sent = 0;
            if (!hasBacklog())
            {
                int room = connection.writeBufferRemaining();
                if (room < length)
                {
                    connection.flush();
                    room = connection.writeBufferRemaining();
                }
                sent = Math.max(0, Math.min(room, length));
                if (sent > 0 && connection.isOpen())
                {
                    connection.write(bytes, offset, sent);
                }
                if (sent == length)
                {
                    return true;
                }
            }
            if (backlog == null && (backlog = reserveBuffer()) == null)
            {
                return false;
            }
            if (length - sent > backlog.remaining())
            {
                overflowed = true;
                return false;
            }
            backlog.put(bytes, offset + sent, length - sent);
            return true;
        }
        if (!parkSegment(sequence, length))
        {
            return false;
        }
        parked.put(bytes, offset, length);
        return true;
    }

    /** Records a segment of a response not yet in turn, whose bytes go next into the parked buffer; false on overflow. */
    private boolean parkSegment(final int sequence, final int length)
    {
        if (parked == null && !park())
        {
            return false;
        }
        if (segments == MAX_SEGMENTS || length > parked.remaining())
        {
            overflowed = true;
            return false;
        }
        segmentSequence[segments] = sequence;
        segmentOffset[segments] = parked.position();
        segmentLength[segments] = length;
        segments++;
        liveSegments++;
        return true;
    }

    private boolean park()
    {
        if ((parked = reserveBuffer()) == null)
        {
            return false;
        }
        if (segmentSequence == null)
        {
            segmentSequence = new int[MAX_SEGMENTS];
            segmentOffset = new int[MAX_SEGMENTS];
            segmentLength = new int[MAX_SEGMENTS];
        }
        return true;
    }

    /**
     * Sends what was parked for the response now in turn.
     *
     * @param sequence its request sequence.
     */
    void release(final int sequence)
    {
        if (liveSegments == 0)
        {
            return;
        }
        final ByteBuffer view = parked;
        final int savedPosition = view.position();
        for (int s = 0; s < segments; s++)
        {
            if (segmentLength[s] >= 0 && segmentSequence[s] == sequence)
            {
                view.limit(segmentOffset[s] + segmentLength[s]).position(segmentOffset[s]);
                send(view);
                segmentLength[s] = -1;
                liveSegments--;
            }
        }
        view.limit(view.capacity()).position(savedPosition);
        if (liveSegments == 0)
        {
            segments = 0;
            parked = giveBack(parked);
        }
    }

    /**
     * An empty buffer goes, and its reservation back to the budget: an idle connection holds no large buffer, and
     * the reactor's bound counts only the connections that need one now.
     */
    private ByteBuffer giveBack(final ByteBuffer buffer)
    {
        recycler.giveResponseBuffer(buffer);
        budget.release(capacity);
        reserved -= capacity;
        return null;
    }

    private boolean send(final ByteBuffer bytes)
    {
        if (!hasBacklog())
        {
            writeWhatFits(bytes);
            if (!bytes.hasRemaining())
            {
                return true;
            }
        }
        if (backlog == null && (backlog = reserveBuffer()) == null)
        {
            bytes.position(bytes.limit());
            return false;
        }
        if (bytes.remaining() > backlog.remaining())
        {
            bytes.position(bytes.limit());
            overflowed = true;
            return false;
        }
        backlog.put(bytes);
        return true;
    }

    /** Writes as much as the connection's write buffer takes, in slices that fit. */
    private void writeWhatFits(final ByteBuffer bytes)
    {
        int room = connection.writeBufferRemaining();
        if (room < bytes.remaining())
        {
            connection.flush();
            room = connection.writeBufferRemaining();
        }
        final int length = Math.min(room, bytes.remaining());
        if (length <= 0 || !connection.isOpen())
        {
            return;
        }
        final int limit = bytes.limit();
        bytes.limit(bytes.position() + length);
        connection.write(bytes);
        bytes.limit(limit);
    }

    /**
     * Moves the backlog to the connection until it is empty or the socket lags; a lagging socket tells when it
     * drains (writable), and one that does not lag has taken everything, so flushing again is safe.
     *
     * @return true when the backlog is empty.
     */
    boolean drain()
    {
        while (hasBacklog() && connection.isOpen())
        {
            backlog.flip();
            writeWhatFits(backlog);
            backlog.compact();
            if (!hasBacklog())
            {
                backlog = giveBack(backlog);
                break;
            }
            connection.flush();
            if (connection.isLagging())
            {
                break;
            }
        }
        return !hasBacklog();
    }
}
