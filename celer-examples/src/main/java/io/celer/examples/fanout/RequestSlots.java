package io.celer.examples.fanout;

import java.nio.ByteBuffer;

/**
 * The requests in flight, pre-allocated: each slot holds a client's line until a back-end answers, then the
 * answer until the client's earlier answers have gone out. Reactor thread only.
 *
 * <p>A client's slots are chained in request order through {@link #next}, which is how answers that come
 * back out of order from different back-ends go out in order.
 */
final class RequestSlots
{
    static final int NONE = -1;

    /** The request line, replaced by its answer once answered. */
    final byte[][] bytes;
    final int[] length;
    /** Whom to answer; null once that client has gone. */
    final FrontClient[] client;
    /** The same client's next request, or {@link #NONE}. */
    final int[] next;
    final boolean[] answered;
    private final int[] free;
    private int freeCount;

    RequestSlots(final int capacity, final int maxLength)
    {
        bytes = new byte[capacity][maxLength];
        length = new int[capacity];
        client = new FrontClient[capacity];
        next = new int[capacity];
        answered = new boolean[capacity];
        free = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            free[i] = capacity - 1 - i;
        }
        freeCount = capacity;
    }

    /**
     * A free slot holding a copy of the line, chained after the client's other requests; {@link #NONE} when
     * all are in use.
     */
    int take(final FrontClient owner, final ByteBuffer line)
    {
        if (freeCount == 0)
        {
            return NONE;
        }
        final int slot = free[--freeCount];
        length[slot] = line.remaining();
        line.get(bytes[slot], 0, length[slot]);
        client[slot] = owner;
        next[slot] = NONE;
        answered[slot] = false;
        if (owner.tail == NONE)
        {
            owner.head = slot;
        }
        else
        {
            next[owner.tail] = slot;
        }
        owner.tail = slot;
        return slot;
    }

    /**
     * Keeps the answer in place of the request, cut to the slot's size.
     */
    void answer(final int slot, final ByteBuffer answer)
    {
        final int count = Math.min(answer.remaining(), bytes[slot].length);
        answer.get(bytes[slot], 0, count);
        length[slot] = count;
        answered[slot] = true;
    }

    void answer(final int slot, final byte[] answer)
    {
        System.arraycopy(answer, 0, bytes[slot], 0, answer.length);
        length[slot] = answer.length;
        answered[slot] = true;
    }

    void release(final int slot)
    {
        client[slot] = null;
        free[freeCount++] = slot;
    }

    int free()
    {
        return freeCount;
    }
}
