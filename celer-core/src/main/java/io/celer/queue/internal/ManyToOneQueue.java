package io.celer.queue.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/** Padding before the producers' field, away from the object header and whatever precedes the queue. */
abstract class ManyToOnePadTail
{
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The next slot to claim, raised by producers with a compare-and-set. */
abstract class ManyToOneTail extends ManyToOnePadTail
{
    volatile long tail;
}

/** Padding between the producers' field and the consumer's. */
abstract class ManyToOnePadHead extends ManyToOneTail
{
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;
}

/** The next slot to take, raised by the consumer alone. */
abstract class ManyToOneHead extends ManyToOnePadHead
{
    volatile long head;
}

/** Padding after the consumer's field. */
abstract class ManyToOnePadEnd extends ManyToOneHead
{
    long p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47;
}

/**
 * A bounded, lock-free queue of references from many producer threads to one consumer, garbage-free: the
 * reactor's queue of callbacks. Written on {@link VarHandle}s rather than on Agrona's queue, which reaches the
 * JDK's internal {@code Unsafe} and so needs a JVM flag in every application.
 *
 * <p>A producer claims a slot by raising the tail with a compare-and-set, then publishes its element into it with
 * a release store; the consumer takes elements in order with acquire loads, empties each slot, and raises the
 * head with a release store, which producers read to know the room left. A claimed slot whose element is not
 * stored yet ends a drain early; the element is taken by the next one.
 *
 * @param <E> the elements' type.
 */
public final class ManyToOneQueue<E> extends ManyToOnePadEnd
{
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(ManyToOneTail.class, "tail", long.class);
            HEAD = lookup.findVarHandle(ManyToOneHead.class, "head", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Object[] slots;
    private final int mask;
    private final int capacity;

    /**
     * An empty queue.
     *
     * @param requestedCapacity the most elements it holds, rounded up to a power of two.
     */
    public ManyToOneQueue(final int requestedCapacity)
    {
        if (requestedCapacity < 1 || requestedCapacity > 1 << 30)
        {
            throw new IllegalArgumentException("capacity must be between 1 and 2^30: " + requestedCapacity);
        }
        capacity = requestedCapacity == 1 ? 1 : Integer.highestOneBit(requestedCapacity - 1) << 1;
        mask = capacity - 1;
        slots = new Object[capacity];
    }

    /**
     * The most elements it holds.
     *
     * @return the capacity, a power of two.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Adds an element, from any thread.
     *
     * @param element the element.
     * @return false, and nothing added, when the queue is full.
     * @throws NullPointerException if the element is null.
     */
    public boolean offer(final E element)
    {
        if (element == null)
        {
            throw new NullPointerException("element");
        }
        long claimed;
        do
        {
            claimed = (long)TAIL.getVolatile(this);
            if (claimed - (long)HEAD.getAcquire(this) >= capacity)
            {
                return false;
            }
        }
        while (!TAIL.compareAndSet(this, claimed, claimed + 1));
        SLOT.setRelease(slots, (int)claimed & mask, element);
        return true;
    }

    /**
     * Hands every element offered before the drain began to a handler, in order; consumer thread only. Elements
     * offered meanwhile, by the handler too, wait for the next drain, so a callback that queues itself again runs
     * once per drain.
     *
     * @param handler takes each element.
     * @return how many were taken.
     */
    public int drain(final Consumer<E> handler)
    {
        long next = (long)HEAD.getOpaque(this);
        final long end = (long)TAIL.getVolatile(this);
        int taken = 0;
        while (next < end)
        {
            final int index = (int)next & mask;
            @SuppressWarnings("unchecked")
            final E element = (E)SLOT.getAcquire(slots, index);
            if (element == null)
            {
                break;
            }
            SLOT.setOpaque(slots, index, null);
            next++;
            HEAD.setRelease(this, next); // the slot is free for producers before the handler runs
            taken++;
            handler.accept(element);
        }
        return taken;
    }

    /**
     * Whether no element is claimed or published; exact on the consumer thread when no producer is offering.
     *
     * @return true when empty.
     */
    public boolean isEmpty()
    {
        return (long)HEAD.getAcquire(this) == (long)TAIL.getVolatile(this);
    }

    /**
     * Elements claimed and not yet taken.
     *
     * @return the count, a snapshot.
     */
    public int size()
    {
        final long head = (long)HEAD.getAcquire(this);
        return (int)Math.max(0, (long)TAIL.getVolatile(this) - head);
    }
}
