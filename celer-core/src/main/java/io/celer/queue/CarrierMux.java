package io.celer.queue;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Many producers to one consumer, without locks or garbage: each producer thread gets a lane of its own
 * (a {@link CarrierQueue}) the first time it claims, and the consumer drains the lanes in turn.
 *
 * <p>Order is kept per producer, not across producers. Registering a thread's lane allocates once; from
 * then on nothing is allocated. A thread past the configured number of producers gets an
 * {@link IllegalStateException}.
 *
 * <p>Producers read only this mux's final fields and their own lane; the consumer reads each lane's publication
 * flags and the lane array, written only when a producer registers. The lane the next drain starts with, which
 * the consumer writes on every drain, sits on a padded line of its own, so that it does not take away the
 * line the producers' thread lookup reads.
 *
 * @param <E> the carrier type.
 */
public final class CarrierMux<E> extends LaneCursorPadTail implements Drainable<E>
{
    private final int laneCapacity;
    private final Supplier<? extends E> factory;
    private final int maxProducers;
    private final ThreadLocal<CarrierQueue<E>> laneOfThread = new ThreadLocal<>();
    private volatile CarrierQueue<E>[] lanes;

    /**
     * Builds the mux; lanes come as producers do.
     *
     * @param laneCapacity carriers per producer lane.
     * @param factory      makes the carriers.
     * @param maxProducers the most producer threads it serves.
     */
    @SuppressWarnings("unchecked")
    public CarrierMux(final int laneCapacity, final Supplier<? extends E> factory, final int maxProducers)
    {
        if (maxProducers < 1)
        {
            throw new IllegalArgumentException("maxProducers must be at least 1: " + maxProducers);
        }
        this.laneCapacity = laneCapacity;
        this.factory = factory;
        this.maxProducers = maxProducers;
        this.lanes = new CarrierQueue[0];
    }

    /**
     * Producer: the next free carrier of the calling thread's lane.
     *
     * @return the carrier, or null when that lane is full.
     */
    public E claim()
    {
        return lane().claim();
    }

    /**
     * Producer: the next free carrier, running {@code whileFull} between tries while the lane is full.
     *
     * @param whileFull what to do between tries.
     * @return the carrier.
     */
    public E claim(final Runnable whileFull)
    {
        return lane().claim(whileFull);
    }

    /**
     * Producer: publishes what the calling thread claimed.
     */
    public void publish()
    {
        lane().publish();
    }

    /**
     * Consumer: hands published carriers of all lanes to an action, a lane at a time, starting with a
     * different lane each call so that no producer starves the others.
     *
     * @param action called once per carrier.
     * @param limit  the most carriers to take from each lane.
     * @return how many were taken.
     */
    public int drain(final Consumer<? super E> action, final int limit)
    {
        final CarrierQueue<E>[] current = lanes;
        final int count = current.length;
        int taken = 0;
        final int first = firstLane(count);
        for (int i = 0; i < count; i++)
        {
            final int index = first + i;
            taken += current[index < count ? index : index - count].drain(action, limit);
        }
        return taken;
    }

    /**
     * Consumer: like {@link #drain(Consumer, int)}, but checks a condition before each carrier and stops,
     * leaving the rest published, as soon as it is false; the action itself may turn it false.
     *
     * @param action    called once per carrier.
     * @param limit     the most carriers to take from each lane.
     * @param condition asked before each carrier; false stops the drain.
     * @return how many were taken.
     */
    @Override
    public int drainWhile(final Consumer<? super E> action, final int limit, final BooleanSupplier condition)
    {
        final CarrierQueue<E>[] current = lanes;
        final int count = current.length;
        int taken = 0;
        final int first = firstLane(count);
        for (int i = 0; i < count && condition.getAsBoolean(); i++)
        {
            final int index = first + i;
            taken += current[index < count ? index : index - count].drainWhile(action, limit, condition);
        }
        return taken;
    }

    private int firstLane(final int count)
    {
        // Lanes only grow, so a start past the count is impossible; wrapping here keeps the counter small
        // instead of letting it overflow into negative indices after 2^31 drains.
        final int first = next < count && next >= 0 ? next : 0;
        next = first + 1 < count ? first + 1 : 0;
        return first;
    }

    /**
     * Consumer: whether any lane has a published carrier; a hint under concurrency.
     *
     * @return true when a drain would find something.
     */
    @Override
    public boolean hasPublished()
    {
        for (final CarrierQueue<E> lane : lanes)
        {
            if (lane.hasPublished())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * How many producer threads have a lane.
     *
     * @return the count.
     */
    public int producers()
    {
        return lanes.length;
    }

    /**
     * Producer: the calling thread's own lane, made on its first use. A producer that keeps it and claims and
     * publishes on it directly skips the thread lookup that {@link #claim()} and {@link #publish()} pay per
     * call; only the thread that got it may produce into it.
     *
     * @return the lane, a one-producer queue that this mux drains.
     * @throws IllegalStateException when the mux already serves its most producer threads.
     */
    public CarrierQueue<E> producerLane()
    {
        return lane();
    }

    private CarrierQueue<E> lane()
    {
        final CarrierQueue<E> lane = laneOfThread.get();
        return lane != null ? lane : register();
    }

    private synchronized CarrierQueue<E> register()
    {
        final CarrierQueue<E>[] current = lanes;
        if (current.length == maxProducers)
        {
            throw new IllegalStateException("this mux serves at most " + maxProducers + " producer threads; " +
                Thread.currentThread().getName() + " would be one more");
        }
        final CarrierQueue<E> lane = new CarrierQueue<>(laneCapacity, factory);
        final CarrierQueue<E>[] grown = java.util.Arrays.copyOf(current, current.length + 1);
        grown[current.length] = lane;
        lanes = grown;
        laneOfThread.set(lane);
        return lane;
    }
}
