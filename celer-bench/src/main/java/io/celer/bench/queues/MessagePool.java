package io.celer.bench.queues;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * The taking side: how many it took, and its cached view of what came back.
 */
abstract class MessagePoolTaker extends PadHead
{
    long taken;
    long returnedCache;
}

/**
 * Padding between the two sides.
 */
abstract class MessagePoolPadMiddle extends MessagePoolTaker
{
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30;
}

/**
 * The returning side: how many came back.
 */
abstract class MessagePoolReturner extends MessagePoolPadMiddle
{
    volatile long returned;
}

/**
 * Padding after the returning side.
 */
abstract class MessagePoolPadTail extends MessagePoolReturner
{
    long p31, p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45;
}

/**
 * A pre-filled pool for queues that hand references over: one thread takes objects, another gives them back
 * once read, and nothing is allocated after construction.
 *
 * <p>This is what a garbage-free user of such a queue must add, so the benchmark adds it to them. It is a ring
 * of references with one thread on each end: since only objects it handed out come back, a return always finds
 * its slot free and needs no check.
 *
 * @param <E> the pooled type.
 */
public final class MessagePool<E> extends MessagePoolPadTail
{
    private static final VarHandle RETURNED;

    static
    {
        try
        {
            RETURNED = MethodHandles.lookup().findVarHandle(MessagePoolReturner.class, "returned", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Object[] slots;
    private final int mask;

    /**
     * Builds the pool, full.
     *
     * @param capacity objects, rounded up to a power of two.
     * @param factory  makes them.
     */
    public MessagePool(final int capacity, final Supplier<? extends E> factory)
    {
        if (capacity < 1 || capacity > (1 << 30))
        {
            throw new IllegalArgumentException("capacity must be between 1 and 2^30: " + capacity);
        }
        final int size = 1 << (32 - Integer.numberOfLeadingZeros(capacity - 1));
        slots = new Object[size];
        for (int i = 0; i < size; i++)
        {
            slots[i] = factory.get();
        }
        mask = size - 1;
        returnedCache = size;
        RETURNED.setRelease(this, (long)size);
    }

    /**
     * How many objects the pool owns.
     *
     * @return the capacity, a power of two.
     */
    public int capacity()
    {
        return slots.length;
    }

    /**
     * Taking thread: an object to fill and send.
     *
     * @return the object, or null when all are out.
     */
    @SuppressWarnings("unchecked")
    public E take()
    {
        final long next = taken;
        if (next >= returnedCache)
        {
            returnedCache = (long)RETURNED.getAcquire(this);
            if (next >= returnedCache)
            {
                return null;
            }
        }
        taken = next + 1;
        return (E)slots[(int)next & mask];
    }

    /**
     * Returning thread: gives back an object this pool handed out, once read.
     *
     * @param element the object.
     */
    public void giveBack(final E element)
    {
        // Only the returning thread writes the count, so a plain read of it is its own latest value.
        final long next = (long)RETURNED.get(this);
        slots[(int)next & mask] = element;
        RETURNED.setRelease(this, next + 1);
    }
}
