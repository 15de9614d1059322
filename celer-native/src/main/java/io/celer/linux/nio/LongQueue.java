package io.celer.linux.nio;

/**
 * A first-in first-out queue of {@code long}s in a ring that doubles when full: what a completion leaves for a
 * channel to take later (a received buffer and its length, an accepted descriptor), with no boxing and no garbage
 * once it has grown to its working size.
 */
final class LongQueue
{
    private long[] items;
    private int head;
    private int size;

    /**
     * An empty queue.
     *
     * @param capacity its first capacity, a power of two.
     */
    LongQueue(final int capacity)
    {
        items = new long[capacity];
    }

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    void add(final long value)
    {
        if (size == items.length)
        {
            final long[] bigger = new long[items.length * 2];
            for (int i = 0; i < size; i++)
            {
                bigger[i] = items[(head + i) & (items.length - 1)];
            }
            items = bigger;
            head = 0;
        }
        items[(head + size) & (items.length - 1)] = value;
        size++;
    }

    long peek()
    {
        return items[head];
    }

    long poll()
    {
        final long value = items[head];
        head = (head + 1) & (items.length - 1);
        size--;
        return value;
    }
}
