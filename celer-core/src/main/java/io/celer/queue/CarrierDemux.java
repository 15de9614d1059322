package io.celer.queue;

import java.util.function.Supplier;

/**
 * Padding before the producer's own field, so it shares no cache line with the object header or others.
 */
abstract class CarrierDemuxPadHead
{
    /** Fills the gap after a compressed header, where the JVM would otherwise put a subclass's int. */
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/**
 * The producer's own field, written on every round-robin claim.
 */
abstract class CarrierDemuxProducer extends CarrierDemuxPadHead
{
    /** The lane the next round-robin claim tries first. */
    int next;
    /** Fills the rest of the eight bytes, where the JVM would otherwise put a subclass's int. */
    int p31;
}

/**
 * Padding between the producer's field and the lanes, which consumers may look up at any time.
 */
abstract class CarrierDemuxPadTail extends CarrierDemuxProducer
{
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30;
}

/**
 * One producer to many consumers: a {@link CarrierQueue} per consumer, and the producer picks the lane.
 *
 * <p>Picking the lane from a key (a connection id, say) keeps everything with that key in order on one
 * consumer; {@link #claim()} spreads carriers round-robin instead.
 *
 * <p>A consumer's lane shares no cache line with another's: a publication stores only into the flags of
 * lanes that have something claimed, so consumers waiting on the other lanes keep their lines.
 *
 * @param <E> the carrier type.
 */
public final class CarrierDemux<E> extends CarrierDemuxPadTail
{
    private final CarrierQueue<E>[] lanes;

    /**
     * Builds one lane per consumer.
     *
     * @param consumers    how many consumers.
     * @param laneCapacity carriers per lane.
     * @param factory      makes the carriers.
     */
    @SuppressWarnings("unchecked")
    public CarrierDemux(final int consumers, final int laneCapacity, final Supplier<? extends E> factory)
    {
        if (consumers < 1)
        {
            throw new IllegalArgumentException("consumers must be at least 1: " + consumers);
        }
        lanes = new CarrierQueue[consumers];
        for (int i = 0; i < consumers; i++)
        {
            lanes[i] = new CarrierQueue<>(laneCapacity, factory);
        }
    }

    /**
     * How many consumers.
     *
     * @return the count.
     */
    public int consumers()
    {
        return lanes.length;
    }

    /**
     * Producer: a free carrier of the lane that a key maps to.
     *
     * @param key any number; the same key always maps to the same lane.
     * @return the carrier, or null when that lane is full.
     */
    public E claim(final long key)
    {
        return lanes[laneOf(key)].claim();
    }

    /**
     * Producer: a free carrier of the next lane round-robin that has room.
     *
     * @return the carrier, or null when every lane is full.
     */
    public E claim()
    {
        for (int i = 0; i < lanes.length; i++)
        {
            final int lane = next;
            next = lane + 1 == lanes.length ? 0 : lane + 1;
            final E carrier = lanes[lane].claim();
            if (carrier != null)
            {
                return carrier;
            }
        }
        return null;
    }

    /**
     * Producer: publishes what was claimed on every lane; a lane with nothing claimed since its last
     * publication is left alone, without a store its consumer would have to fetch.
     */
    public void publish()
    {
        for (final CarrierQueue<E> lane : lanes)
        {
            lane.publish();
        }
    }

    /**
     * The lane a key maps to.
     *
     * @param key any number.
     * @return the lane index.
     */
    public int laneOf(final long key)
    {
        return (int)Math.floorMod(key ^ (key >>> 32), (long)lanes.length);
    }

    /**
     * Consumer: the queue that consumer {@code index} polls.
     *
     * @param index from 0.
     * @return its lane.
     */
    public CarrierQueue<E> lane(final int index)
    {
        return lanes[index];
    }
}
