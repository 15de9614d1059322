package io.celer.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The producer's own fields: no other thread reads them, so writing them costs no cache line transfer.
 */
abstract class CarrierQueueProducer extends PadHead
{
    /** The next position to claim. */
    long claimed;
    /** Positions below it are published; the next publication's batch starts here. */
    long published;
    /** Positions below it are free to claim, as last seen: the consumer's release plus the capacity. */
    long claimLimit;
}

/**
 * Padding between the producer's fields and the consumer's.
 */
abstract class CarrierQueuePadMiddle extends CarrierQueueProducer
{
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30;
}

/**
 * The consumer's own fields.
 */
abstract class CarrierQueueConsumer extends CarrierQueuePadMiddle
{
    /** The next position to poll. */
    long taken;
    /** The end of the batch that {@code taken} is in, as read from its first slot's flag. */
    long publishedLimit;
    /** What the consumer last released, so that a release with nothing new stores nothing. */
    long releasedCache;
}

/**
 * Padding between the consumer's own fields and the one it shares.
 */
abstract class CarrierQueuePadRelease extends CarrierQueueConsumer
{
    long p31, p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45;
}

/**
 * What the consumer released, on a line of its own: the producer reads it only when its claim limit runs out,
 * and then must not steal the line the consumer writes on every poll.
 */
abstract class CarrierQueueReleased extends CarrierQueuePadRelease
{
    volatile long consumed;
}

/**
 * Padding after the shared field.
 */
abstract class CarrierQueuePadTail extends CarrierQueueReleased
{
    long p46, p47, p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60;
}

/**
 * A bounded one-producer, one-consumer queue of pre-allocated, mutable carriers: nothing is allocated
 * after construction.
 *
 * <p>The producer {@link #claim()}s a carrier, fills it, and {@link #publish()}es everything it claimed; the
 * consumer {@link #poll()}s carriers in order and {@link #release()}s them back. A full queue makes
 * {@link #claim()} return null: the producer decides whether to wait (see {@link #claim(Runnable)}), drop or
 * report.
 *
 * <p>A hop moves as few shared cache lines as it can. A publication is one release store of the batch's end
 * into a flag beside the batch's first slot; the consumer reads that flag, never the producer's counters, and
 * polls the rest of the batch from its own fields. A release is one release store of the consumer's position,
 * which the producer reads only when the room it last saw is used up. Every other field is private to one
 * side, and the class hierarchy exists only to pad the two sides and the shared field onto separate cache
 * lines (the JVM keeps a superclass's fields before a subclass's, and reorders fields within a class).
 *
 * <p>Agrona's queues carry references handed over by the producer; carriers here stay in the ring and are
 * reused, which is what lets the producer fill them without allocating.
 *
 * @param <E> the carrier type.
 */
public final class CarrierQueue<E> extends CarrierQueuePadTail implements Drainable<E>
{
    /**
     * Unused references before and after the carriers, so the array's header and ends share no cache line
     * with objects that others write (the carriers are allocated right after it).
     */
    private static final int CARRIER_PAD = 32;

    /** Unused flags before and after the used ones, for the same reason. */
    private static final int FLAG_PAD = 16;

    /**
     * Log2 of the distance between two slots' flags, in longs: 0 packs eight flags in a cache line, 3 gives
     * each its own line at the cost of 64 bytes a slot. A ping-pong on a loaded machine took about 15% less
     * per round trip with 3, but one to one every step away from packed cost throughput: medians of four
     * alternating JMH forks on a loaded machine gave 26, 20, 15 and 13 million messages a second for 0 to 3,
     * as streaming then carries up to a line of flags per message instead of one per eight.
     */
    private static final int FLAG_SHIFT = 0;

    private static final VarHandle FLAG = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle CONSUMED;

    static
    {
        try
        {
            CONSUMED = MethodHandles.lookup().findVarHandle(CarrierQueueReleased.class, "consumed", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Object[] carriers;
    /**
     * Per slot, the end of the batch that last started there: a batch from position p is published once the
     * flag of p's slot holds more than p. A flag left from an earlier lap holds at most p, because its batch
     * started at or before p minus the capacity and spanned at most the capacity.
     */
    private final long[] flags;
    private final int mask;
    private final int capacity;

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
        carriers = new Object[size + 2 * CARRIER_PAD];
        for (int i = 0; i < size; i++)
        {
            carriers[CARRIER_PAD + i] = factory.get();
        }
        flags = new long[(size << FLAG_SHIFT) + 2 * FLAG_PAD];
        mask = size - 1;
        this.capacity = size;
        claimLimit = size;
    }

    /**
     * How many carriers the ring holds.
     *
     * @return the capacity, a power of two.
     */
    public int capacity()
    {
        return capacity;
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
        if (next >= claimLimit)
        {
            // Acquire: the consumer's reads of the released carriers happened before this, so the refill
            // that follows cannot show through them.
            final long limit = (long)CONSUMED.getAcquire(this) + capacity;
            claimLimit = limit;
            if (next >= limit)
            {
                return null;
            }
        }
        claimed = next + 1;
        return (E)carriers[CARRIER_PAD + ((int)next & mask)];
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
     * Producer: makes every claimed carrier visible to the consumer, all at once; with nothing claimed since
     * the last call it touches no shared cache line.
     */
    public void publish()
    {
        final long end = claimed;
        final long start = published;
        if (end != start)
        {
            // Release: the carriers' plain writes are visible to whoever reads this flag with acquire.
            FLAG.setRelease(flags, flagIndex(start), end);
            published = end;
        }
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
        if (next >= publishedLimit)
        {
            // Only here, at the first position of a batch, is there a flag to read.
            final long end = (long)FLAG.getAcquire(flags, flagIndex(next));
            if (end <= next)
            {
                return null;
            }
            publishedLimit = end;
        }
        taken = next + 1;
        return (E)carriers[CARRIER_PAD + ((int)next & mask)];
    }

    /**
     * Consumer: gives every polled carrier back to the producer.
     */
    public void release()
    {
        final long position = taken;
        if (position != releasedCache)
        {
            // Release: the reads of these carriers happen before the producer's acquire lets it refill them.
            CONSUMED.setRelease(this, position);
            releasedCache = position;
        }
    }

    /**
     * Either side: whether a published carrier waits for the consumer; a hint under concurrency.
     *
     * @return true when the consumer has something to poll.
     */
    @Override
    public boolean hasPublished()
    {
        final long next = taken;
        return next < publishedLimit || (long)FLAG.getAcquire(flags, flagIndex(next)) > next;
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
            // Released even when the action throws, so a failing carrier is not handed out twice; one store
            // for the whole batch.
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
    @Override
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
            if (taken != start)
            {
                release();
            }
        }
        return (int)(taken - start);
    }

    private int flagIndex(final long position)
    {
        return FLAG_PAD + (((int)position & mask) << FLAG_SHIFT);
    }
}
