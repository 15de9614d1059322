package io.celer.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.celer.queue.CarrierQueueTest.Slot;

class CarrierDemuxTest
{
    @Test
    void theSameKeyAlwaysReachesTheSameConsumerInOrder() throws Exception
    {
        final int consumers = 3;
        final int keys = 17;
        final long perKey = 100_000;
        final CarrierDemux<Slot> demux = new CarrierDemux<>(consumers, 256, Slot::new);
        final ConcurrentHashMap<Long, Integer> consumerOfKey = new ConcurrentHashMap<>();
        final AtomicReference<String> failure = new AtomicReference<>();
        final AtomicLong received = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < consumers; c++)
        {
            final int consumer = c;
            final CarrierQueue<Slot> lane = demux.lane(c);
            threads.add(new Thread(() ->
            {
                final long[] next = new long[keys];
                final long deadline = System.nanoTime() + 120_000_000_000L;
                while (received.get() < keys * perKey && System.nanoTime() < deadline)
                {
                    final int taken = lane.drain(slot ->
                    {
                        final int key = (int)slot.producer;
                        final Integer owner = consumerOfKey.putIfAbsent((long)key, consumer);
                        if (owner != null && owner != consumer)
                        {
                            failure.compareAndSet(null, "key " + key + " reached consumers " + owner + " and " + consumer);
                        }
                        if (slot.value != next[key]++)
                        {
                            failure.compareAndSet(null, "key " + key + " out of order at " + slot.value);
                        }
                        received.incrementAndGet();
                    }, 64);
                    if (taken == 0)
                    {
                        Thread.yield();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (long i = 0; i < perKey; i++)
        {
            for (int key = 0; key < keys; key++)
            {
                Slot slot;
                while ((slot = demux.claim(key)) == null)
                {
                    demux.publish();
                    Thread.yield();
                }
                slot.producer = key;
                slot.value = i;
            }
            demux.publish();
        }
        for (final Thread t : threads)
        {
            t.join(120_000);
        }
        assertThat(failure.get()).isNull();
        assertThat(received.get()).isEqualTo(keys * perKey);
        assertThat(consumerOfKey.values()).as("keys spread over every consumer").containsAll(List.of(0, 1, 2));
    }

    @Test
    void roundRobinSkipsFullLanes()
    {
        final CarrierDemux<Slot> demux = new CarrierDemux<>(2, 1, Slot::new);
        assertThat(demux.claim()).isNotNull();
        assertThat(demux.claim()).isNotNull();
        assertThat(demux.claim()).as("both lanes full").isNull();
        demux.publish();
        assertThat(demux.lane(1).poll()).isNotNull();
        demux.lane(1).release();
        assertThat(demux.claim()).isNotNull();
    }

    @Test
    void aPublicationReachesOnlyTheLanesThatHadSomethingClaimed()
    {
        final CarrierDemux<Slot> demux = new CarrierDemux<>(3, 4, Slot::new);
        demux.claim(1).value = 7;
        demux.publish();
        assertThat(demux.lane(0).hasPublished()).isFalse();
        assertThat(demux.lane(2).hasPublished()).isFalse();
        assertThat(demux.lane(1).poll().value).isEqualTo(7);
        demux.publish();
        assertThat(demux.lane(1).poll()).as("a publication with nothing claimed adds nothing").isNull();
        demux.claim(2).value = 8;
        demux.claim(1).value = 9;
        demux.publish();
        assertThat(demux.lane(2).poll().value).isEqualTo(8);
        assertThat(demux.lane(1).poll().value).isEqualTo(9);
        assertThat(demux.lane(0).poll()).isNull();
    }
}
