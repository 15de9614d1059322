package io.celer.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Where the JVM put the queues' fields: the fields one thread writes must be a cache line away from the ones
 * another thread reads, or every write takes the line from the reader (false sharing). Padding is only as good
 * as the layout the JVM chose, so the offsets are read back instead of trusted.
 */
class CacheLineLayoutTest
{
    private static final long CACHE_LINE = 64;

    /** The object's header: its line may be shared with the end of whatever object lies before it. */
    private static final List<Long> HEADER = List.of(0L);

    @Test
    void theQueuesProducerConsumerAndReleaseFieldsLieOnSeparateLines() throws Exception
    {
        final List<List<Long>> groups = List.of(
            HEADER,
            offsets(CarrierQueueProducer.class, "claimed", "published", "claimLimit"),
            offsets(CarrierQueueConsumer.class, "taken", "publishedLimit", "releasedCache"),
            offsets(CarrierQueueReleased.class, "consumed"),
            offsets(CarrierQueue.class, "carriers", "flags", "mask", "capacity"));
        assertThat(CarrierQueueReleased.class).isAssignableFrom(CarrierQueue.class);
        assertApart(groups);
    }

    @Test
    void theMuxDrainCounterLiesAwayFromWhatProducersRead() throws Exception
    {
        assertThat(CarrierMuxConsumer.class).isAssignableFrom(CarrierMux.class);
        assertApart(List.of(
            HEADER,
            offsets(CarrierMuxConsumer.class, "next"),
            offsets(CarrierMux.class, "laneOfThread", "lanes", "laneCapacity", "factory", "maxProducers")));
    }

    @Test
    void theDemuxRoundRobinCounterLiesAwayFromTheLanes() throws Exception
    {
        assertThat(CarrierDemuxProducer.class).isAssignableFrom(CarrierDemux.class);
        assertApart(List.of(
            HEADER,
            offsets(CarrierDemuxProducer.class, "next"),
            offsets(CarrierDemux.class, "lanes")));
    }

    private static void assertApart(final List<List<Long>> groups)
    {
        for (int a = 0; a < groups.size(); a++)
        {
            for (int b = a + 1; b < groups.size(); b++)
            {
                for (final long x : groups.get(a))
                {
                    for (final long y : groups.get(b))
                    {
                        assertThat(Math.abs(x - y)).as("groups %d and %d: offsets %d and %d", a, b, x, y)
                            .isGreaterThanOrEqualTo(CACHE_LINE);
                    }
                }
            }
        }
    }

    @SuppressWarnings("deprecation")
    private static List<Long> offsets(final Class<?> type, final String... names) throws Exception
    {
        final Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        final sun.misc.Unsafe unsafe = (sun.misc.Unsafe)theUnsafe.get(null);
        final List<Long> offsets = new ArrayList<>();
        for (final String name : names)
        {
            offsets.add(unsafe.objectFieldOffset(type.getDeclaredField(name)));
        }
        return offsets;
    }
}
