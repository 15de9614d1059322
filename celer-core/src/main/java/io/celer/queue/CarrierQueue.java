package io.celer.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Padding before the producer's fields, so they share no cache line with the object header or others.
 */
abstract class CarrierQueuePadHead
{
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/**
 * The producer's side: what it claimed, and its cached view of the consumer.
 */
abstract class CarrierQueueProducer extends CarrierQueuePadHead
{
    long claimed;
    long consumedCache;
    volatile long published;
}

/**
 * Padding between the two sides.
 */
abstract class CarrierQueuePadMiddle extends CarrierQueueProducer
{
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30;
}

/**
 * The consumer's side: what it took, and its cached view of the producer.
 */
abstract class CarrierQueueConsumer extends CarrierQueuePadMiddle
{
    long taken;
    long publishedCache;
    volatile long consumed;
}

/**
 * Padding after the consumer's fields.
 */
abstract class CarrierQueuePadTail extends CarrierQueueConsumer
{
    long p31, p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45;
}

/**
 * A bounded one-producer, one-consumer queue of pre-allocated, mutable carriers: nothing is allocated
 * after construction.
 *
 * <p>The producer {@link #claim()}s a carrier, fills it, and {@link #publish()}es everything it claimed; the
 * consumer {@link #poll()}s carriers in order and {@link #release()}s them back. A full queue makes
 * {@link #claim()} return null: the producer decides whether to wait (see {@link #claim(Runnable)}), drop or
 * report. The class hierarchy exists only to pad the two sides onto separate cache lines (the JVM keeps a
 * superclass's fields before a subclass's, and reorders fields within a class).
 *
 * <p>Agrona's queues carry references handed over by the producer; carriers here stay in the ring and are
 * reused, which is what lets the producer fill them without allocating.
 *
 * @param <E> the carrier type.
 */
public final class CarrierQueue<E> extends CarrierQueuePadTail
{
    private static final VarHandle PUBLISHED;
    private static final VarHandle CONSUMED;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PUBLISHED = lookup.findVarHandle(CarrierQueueProducer.class, "published", long.class);
            CONSUMED = lookup.findVarHandle(CarrierQueueConsumer.class, "consumed", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Object[] carriers;
    private final int mask;

    /**
     * Builds the queue and all its carriers.
     *
     * @param capacity carriers, rounded up to a power of two.
     * @param factory  makes one carrier per slot.
     */
    public CarrierQueue(final int capacity, final Supplier<? extends E> factory)
    {
        if (capacity < 1 || capacity > (1 << 30))
        {
            throw new IllegalArgumentException("capacity must be between 1 and 2^30: " + capacity);
        }
        final int size = 1 << (32 - Integer.numberOfLeadingZeros(capacity - 1));
        carriers = new Object[size];
        for (int i = 0; i < size; i++)
        {
            carriers[i] = factory.get();
        }
        mask = size - 1;
    }

    /**
     * How many carriers the ring holds.
     *
     * @return the capacity, a power of two.
     */
    public int capacity()
    {
        return carriers.length;
    }

    /**
     * Producer: the next free carrier, to fill before {@link #publish()}.
     *
     * @return the carrier, or null when the queue is full.
     */
    @SuppressWarnings("unchecked")
    public E claim()
    {
        final long next = claimed;
        if (next - consumedCache >= carriers.length)
        {
            consumedCache = (long)CONSUMED.getAcquire(this);
            if (next - consumedCache >= carriers.length)
            {
                return null;
            }
        }
        claimed = next + 1;
        return (E)carriers[(int)next & mask];
    }

    /**
     * Producer: the next free carrier, publishing what was claimed and running {@code whileFull} between
     * tries while the queue is full.
     *
     * @param whileFull what to do between tries: an idle strategy's {@code idle()}, say.
     * @return the carrier.
     */
    public E claim(final Runnable whileFull)
    {
        E carrier;
        while ((carrier = claim()) == null)
        {
            publish();
            whileFull.run();
        }
        return carrier;
    }

    /**
     * Producer: makes every claimed carrier visible to the consumer.
     */
    public void publish()
    {
        PUBLISHED.setRelease(this, claimed);
    }

    /**
     * Consumer: the next published carrier, valid until {@link #release()}.
     *
     * @return the carrier, or null when none is published.
     */
    @SuppressWarnings("unchecked")
    public E poll()
    {
        final long next = taken;
        if (next >= publishedCache)
        {
            publishedCache = (long)PUBLISHED.getAcquire(this);
            if (next >= publishedCache)
            {
                return null;
            }
        }
        taken = next + 1;
        return (E)carriers[(int)next & mask];
    }

    /**
     * Consumer: gives every polled carrier back to the producer.
     */
    public void release()
    {
        CONSUMED.setRelease(this, taken);
    }

    /**
     * Consumer: hands published carriers to an action, then releases them, also when the action throws.
     *
     * @param action called once per carrier, in order.
     * @param limit  the most carriers to take.
     * @return how many were taken.
     */
    public int drain(final Consumer<? super E> action, final int limit)
    {
        final long start = taken;
        try
        {
            E carrier;
            while (taken - start < limit && (carrier = poll()) != null)
            {
                action.accept(carrier);
            }
        }
        finally
        {
            // Released even when the action throws, so a failing carrier is not handed out twice.
            if (taken != start)
            {
                release();
            }
        }
        return (int)(taken - start);
    }

    /**
     * Consumer: like {@link #drain(Consumer, int)}, but checks a condition before each carrier and stops,
     * leaving the rest published, as soon as it is false; the action itself may turn it false.
     *
     * @param action    called once per carrier, in order.
     * @param limit     the most carriers to take.
     * @param condition asked before each carrier; false stops the drain.
     * @return how many were taken.
     */
    public int drainWhile(final Consumer<? super E> action, final int limit, final BooleanSupplier condition)
    {
        final long start = taken;
        try
        {
            E carrier;
            while (taken - start < limit && condition.getAsBoolean() && (carrier = poll()) != null)
            {
                action.accept(carrier);
            }
        }
        finally
        {
            // Released even when the action throws, so a failing carrier is not handed out twice.
            if (taken != start)
            {
                release();
            }
        }
        return (int)(taken - start);
    }

    /**
     * Either side: whether a published carrier waits for the consumer; a hint under concurrency.
     *
     * @return true when the consumer has something to poll.
     */
    public boolean hasPublished()
    {
        return (long)PUBLISHED.getAcquire(this) > taken;
    }
}
