package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * The responses in flight on one connection, a ring of reusable {@link HttpResponse} slots in request order:
 * the oldest writes to the connection, later ones answered early are parked, and each is retired once sent.
 */
final class ResponsePipeline
{
    private final Connection connection;
    private final PipelineEvents events;
    private final ResponseOutput output;
    private final ResponseTimer timer;
    private final HttpResponse[] slots;
    private final ConnectionRecycler recycler;
    private final DateHeader date;
    private final byte[] serverLine;

    private int headIndex;
    private int count;
    private final HttpCounters counters;
    private int nextSequence;
    private boolean closed;

    ResponsePipeline(
        final Connection connection, final PipelineEvents events, final HttpServerConfig config, final DateHeader date,
        final byte[] serverLine, final ConnectionRecycler recycler)
    {
        this.connection = connection;
        this.counters = HttpCounters.of(connection.reactor().counters());
        this.recycler = recycler;
        this.events = events;
        this.output = new ResponseOutput(connection, config.responseBufferSize(), recycler);
        this.timer = new ResponseTimer(connection, output);
        this.date = date;
        this.serverLine = serverLine;
        // Made on first need: a connection that never pipelines uses one slot, and many live for one request.
        this.slots = new HttpResponse[config.maxPipelinedRequests()];
    }

    Connection connection()
    {
        return connection;
    }

    /** Times the responses of this connection. */
    ResponseTimer timer()
    {
        return timer;
    }

    boolean isFull()
    {
        return count == slots.length;
    }

    boolean isEmpty()
    {
        return count == 0;
    }

    /** Whether the overflow came from the reactor's bound on large buffers, spent. */
    boolean refusedByBudget()
    {
        return output.refusedByBudget();
    }

    boolean hasBacklog()
    {
        return output.hasBacklog();
    }

    /** The sequence the next request gets. */
    int nextSequence()
    {
        return nextSequence;
    }

    /** Takes the next slot; the caller checked {@link #isFull()}. */
    HttpResponse open(final boolean headRequest, final boolean closeAfter, final int minorVersion)
    {
        final int index = (headIndex + count) % slots.length;
        HttpResponse slot = slots[index];
        if (slot == null)
        {
            slot = new HttpResponse(this, date, serverLine);
            slots[index] = slot;
        }
        slot.open(nextSequence, headRequest, closeAfter, minorVersion);
        nextSequence = (nextSequence + 1) & Integer.MAX_VALUE;
        count++;
        counters.pipelineDepthMax.max(count);
        return slot;
    }

    private boolean inTurn(final HttpResponse response)
    {
        return count > 0 && slots[headIndex] == response;
    }

    int room(final HttpResponse response)
    {
        return output.room(inTurn(response));
    }

    void emit(final HttpResponse response, final ByteBuffer bytes)
    {
        if (closed)
        {
            bytes.position(bytes.limit());
            return;
        }
        output.offer(response.sequence, inTurn(response), bytes);
        afterEmit();
    }

    void emit(final HttpResponse response, final byte[] bytes, final int offset, final int length)
    {
        if (closed)
        {
            return;
        }
        output.offer(response.sequence, inTurn(response), bytes, offset, length);
        afterEmit();
    }

    private void afterEmit()
    {
        if (output.overflowed())
        {
            closed = true;
            events.overflowed();
        }
        else if (output.hasBacklog() && !output.drain())
        {
            events.backlogged();
        }
    }

    /** A response's head says the connection closes after it. */
    void closing()
    {
        events.closing();
    }

    void finished(final HttpResponse response)
    {
        counters.response(response.statusCode());
        if (inTurn(response))
        {
            advance();
        }
    }

    /** Retires finished responses at the head and lets the next one's parked bytes out. */
    private void advance()
    {
        while (count > 0 && !closed)
        {
            final HttpResponse head = slots[headIndex];
            if (!head.isDone())
            {
                head.notifyWritable();
                return;
            }
            final boolean close = head.closeAfter;
            final Handler next = head.upgradeTo;
            final int sequence = head.sequence;
            timer.retired(head);
            head.release();
            if (head.head != null)
            {
                // Sent: its bytes are in the connection's buffer or backlog, so the head goes back for the next
                // response, of this connection or another; an idle connection holds none.
                recycler.giveHead(head.head);
                head.head = null;
            }
            count--;
            // Back to the first slot when none is in flight: without pipelining one slot serves every request,
            // its head allocated once and warm in the cache.
            headIndex = count == 0 ? 0 : (headIndex + 1) % slots.length;
            if (close)
            {
                closed = true;
                events.closeAfterResponse();
                return;
            }
            if (next != null)
            {
                events.upgraded(next);
                return;
            }
            events.retired(sequence);
            if (count > 0)
            {
                output.release(slots[headIndex].sequence);
                afterEmit();
            }
        }
    }

    /** The socket took some of the backlog. */
    void writable()
    {
        if (output.drain())
        {
            events.drained();
            timer.settle();
            if (count > 0)
            {
                slots[headIndex].notifyWritable();
            }
        }
    }

    /** A head for a response. */
    ByteBuffer newHead()
    {
        return recycler.takeHead();
    }

    /**
     * The connection closed: what handlers still write goes nowhere, and complete responses, which their
     * handlers no longer hold, give their heads back; a response still open keeps its own.
     */
    void close()
    {
        closed = true;
        output.release();
        timer.clear();
        for (final HttpResponse slot : slots)
        {
            if (slot != null && slot.head != null && slot.isComplete())
            {
                recycler.giveHead(slot.head);
                slot.head = null;
            }
        }
    }
}
