package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * The responses in flight on one connection, a ring of reusable {@link HttpResponse} slots in request order:
 * the oldest writes to the connection, later ones answered early are parked, and each is retired once sent.
 *
 * <p>The responses are the connection's own, as an application may hold one. What puts their bytes out and times
 * them (a {@link ResponseOutput} and its {@link ResponseTimer}) is lent by the server's recycler from the first
 * response in flight until the last is sent and timed, and the ring grows only as far as requests are pipelined:
 * an idle keep-alive connection holds one slot and no output. That one slot is a field: the ring's array is made
 * only once a second request is pipelined behind the first.
 *
 * <p>Its connection is what it tells of its events: the connection extends it, so that the responses' state and
 * the requests' are one object per connection, not two, each with a header and a reference to the other, on
 * every one of thousands of idle connections.
 */
abstract class ResponsePipeline implements PipelineEvents
{
    /** The server's settings, recycler, header lines and counters; the connection and its responses use them. */
    final ServerShare share;
    /** The one slot until a request is pipelined behind another; null once the ring is made. */
    private HttpResponse solo;
    /** The ring, once requests are pipelined on this connection; null until then. */
    private HttpResponse[] slots;
    private ResponseOutput output;

    private int headIndex;
    private int count;
    private int nextSequence;
    /** No response goes out any more: the connection closed or overflowed, or its last response was sent. */
    private boolean shut;
    private boolean inRead;

    ResponsePipeline(final ServerShare share)
    {
        this.share = share;
    }

    private int capacity()
    {
        return slots == null ? 1 : slots.length;
    }

    private HttpResponse slot(final int index)
    {
        return slots == null ? solo : slots[index];
    }

    boolean isFull()
    {
        return count == share.config.maxPipelinedRequests();
    }

    boolean isEmpty()
    {
        return count == 0;
    }

    /** Whether the overflow came from the reactor's bound on large buffers, spent. */
    boolean refusedByBudget()
    {
        return output != null && output.refusedByBudget();
    }

    boolean hasBacklog()
    {
        return output != null && output.hasBacklog();
    }

    /** The sequence the next request gets. */
    int nextSequence()
    {
        return nextSequence;
    }

    /** Whether the connection is inside a read's delivery. */
    boolean isInRead()
    {
        return inRead;
    }

    /** The connection reads (true) or has finished a read (false): a read's end settles what it answered. */
    void inRead(final boolean reading)
    {
        inRead = reading;
        if (output != null)
        {
            output.timer().inRead = reading;
        }
    }

    /**
     * Flushes what waits, as the connection would next, and times the responses the socket took all of; then,
     * if nothing is in flight, the output goes back.
     */
    void settle()
    {
        if (output != null)
        {
            output.timer().settle();
            giveBackIfIdle();
        }
    }

    /** The connection closed or changed protocol: the responses waiting to be timed are not counted. */
    void clearTimer()
    {
        if (output != null)
        {
            output.timer().clear();
        }
    }

    /**
     * Gives the output and its timer back to the recycler once nothing is in flight (or the connection closed)
     * and neither holds anything: called where no method of theirs is on the stack.
     */
    void giveBackIfIdle()
    {
        if (output != null && (count == 0 || shut) && output.isIdle())
        {
            output.unbind();
            share.recycler.giveOutput(output);
            output = null;
        }
    }

    /** Takes the next slot; the caller checked {@link #isFull()}. */
    HttpResponse openResponse(final boolean headRequest, final boolean closeAfter, final int minorVersion)
    {
        if (output == null)
        {
            output = share.recycler.takeOutput();
            output.bind(connection(), this);
            output.timer().inRead = inRead;
        }
        if (count == capacity())
        {
            grow();
        }
        final int index = (headIndex + count) % capacity();
        HttpResponse slot = slot(index);
        if (slot == null)
        {
            slot = new HttpResponse(this);
            if (slots == null)
            {
                solo = slot;
            }
            else
            {
                slots[index] = slot;
            }
        }
        slot.open(nextSequence, headRequest, closeAfter, minorVersion);
        nextSequence = (nextSequence + 1) & Integer.MAX_VALUE;
        count++;
        share.counters.pipelineDepthMax.max(count);
        return slot;
    }

    /** Requests are pipelined deeper than ever on this connection: the ring doubles, up to the bound. */
    private void grow()
    {
        final HttpResponse[] grown = new HttpResponse[Math.min(share.config.maxPipelinedRequests(), capacity() * 2)];
        for (int i = 0; i < count; i++)
        {
            grown[i] = slot((headIndex + i) % capacity());
        }
        slots = grown;
        solo = null;
        headIndex = 0;
    }

    private boolean inTurn(final HttpResponse response)
    {
        return count > 0 && slot(headIndex) == response;
    }

    int room(final HttpResponse response)
    {
        // No output: the connection closed and gave it back; what a response writes now goes nowhere.
        return output == null ? share.recycler.responseBufferSize() : output.room(inTurn(response));
    }

    void emit(final HttpResponse response, final ByteBuffer bytes)
    {
        if (shut)
        {
            bytes.position(bytes.limit());
            return;
        }
        output.offer(response.sequence, inTurn(response), bytes);
        afterEmit();
    }

    void emit(final HttpResponse response, final byte[] bytes, final int offset, final int length)
    {
        if (shut)
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
            shut = true;
            overflowed();
        }
        else if (output.hasBacklog() && !output.drain())
        {
            backlogged();
        }
    }

    void finished(final HttpResponse response)
    {
        share.counters.response(response.statusCode());
        if (inTurn(response))
        {
            advance();
        }
    }

    /** Retires finished responses at the head and lets the next one's parked bytes out. */
    private void advance()
    {
        while (count > 0 && !shut)
        {
            final HttpResponse head = slot(headIndex);
            if (!head.isDone())
            {
                head.notifyWritable();
                return;
            }
            final boolean close = head.closeAfter;
            final Handler next = head.upgradeTo;
            final int sequence = head.sequence;
            output.timer().retired(head);
            head.release();
            if (head.head != null)
            {
                // Sent: its bytes are in the connection's buffer or backlog, so the head goes back for the next
                // response, of this connection or another; an idle connection holds none.
                share.recycler.giveHead(head.head);
                head.head = null;
            }
            count--;
            // Back to the first slot when none is in flight: without pipelining one slot serves every request,
            // its head allocated once and warm in the cache.
            headIndex = count == 0 ? 0 : (headIndex + 1) % capacity();
            if (close)
            {
                shut = true;
                closeAfterResponse();
                return;
            }
            if (next != null)
            {
                upgraded(next);
                return;
            }
            retired(sequence);
            if (count > 0)
            {
                output.release(slot(headIndex).sequence);
                afterEmit();
            }
        }
        if (count == 0 && output != null && !inRead)
        {
            // Answered outside a read: the end of the cycle flushes, times and gives the output back.
            output.timer().settleAtEndOfCycle();
        }
    }

    /** The socket took some of the backlog. */
    void drainBacklog()
    {
        if (output == null)
        {
            return; // nothing waited: the socket drained bytes the connection's own buffer held
        }
        if (output.drain())
        {
            drained();
            settle();
            if (count > 0)
            {
                slot(headIndex).notifyWritable();
            }
        }
    }

    /** A head for a response. */
    ByteBuffer newHead()
    {
        return share.recycler.takeHead();
    }

    /**
     * The connection closed: what handlers still write goes nowhere, and complete responses, which their
     * handlers no longer hold, give their heads back; a response still open keeps its own.
     */
    void closeResponses()
    {
        shut = true;
        if (output != null)
        {
            output.release();
            output.timer().clear();
            giveBackIfIdle(); // else at the end of the cycle, where its timer is due
        }
        for (int i = 0; i < capacity(); i++)
        {
            final HttpResponse slot = slot(i);
            if (slot != null && slot.head != null && slot.isComplete())
            {
                share.recycler.giveHead(slot.head);
                slot.head = null;
            }
        }
    }
}
