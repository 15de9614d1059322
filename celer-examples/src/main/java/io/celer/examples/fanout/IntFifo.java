package io.celer.examples.fanout;

/**
 * A bounded first-in, first-out queue of ints (request slots), allocated once; for one thread.
 */
final class IntFifo
{
    private final int[] items;
    private int head;
    private int size;

    IntFifo(final int capacity)
    {
        items = new int[capacity];
    }

    boolean offer(final int item)
    {
        if (size == items.length)
        {
            return false;
        }
        final int tail = head + size;
        items[tail < items.length ? tail : tail - items.length] = item;
        size++;
        return true;
    }

    /**
     * The oldest item, removed; -1 when empty.
     */
    int poll()
    {
        if (size == 0)
        {
            return -1;
        }
        final int item = items[head];
        head = head + 1 == items.length ? 0 : head + 1;
        size--;
        return item;
    }

    /**
     * The oldest item, left in place; -1 when empty.
     */
    int peek()
    {
        return size == 0 ? -1 : items[head];
    }

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }
}
