package io.celer.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.celer.queue.CarrierQueueTest.Slot;

class CarrierMuxTest
{
    @Test
    void manyProducersKeepTheirOwnOrderAndLoseNothing() throws Exception
    {
        final int producers = 4;
        final long each = 1_000_000;
        final CarrierMux<Slot> mux = new CarrierMux<>(256, Slot::new, producers);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final int producer = p;
            threads.add(new Thread(() ->
            {
                for (long i = 0; i < each; i++)
                {
                    final Slot slot = mux.claim(Thread::yield);
                    slot.producer = producer;
                    slot.value = i;
                    mux.publish();
                }
            }));
        }
        threads.forEach(Thread::start);

        final long[] next = new long[producers];
        final AtomicReference<String> failure = new AtomicReference<>();
        long total = 0;
        final long deadline = System.nanoTime() + 120_000_000_000L;
        while (total < producers * each && System.nanoTime() < deadline)
        {
            final int taken = mux.drain(slot ->
            {
                final int p = (int)slot.producer;
                if (slot.value != next[p])
                {
                    failure.compareAndSet(null, "producer " + p + " expected " + next[p] + " got " + slot.value);
                }
                next[p]++;
            }, 128);
            total += taken;
            if (taken == 0)
            {
                Thread.yield();
            }
        }
        for (final Thread t : threads)
        {
            t.join(10_000);
        }
        assertThat(failure.get()).isNull();
        assertThat(next).containsOnly(each);
        assertThat(mux.hasPublished()).isFalse();
        assertThat(mux.producers()).isEqualTo(producers);
    }

    @Test
    void drainsKeepGoingPastTwoBillionCalls() throws Exception
    {
        final int producers = 3;
        final CarrierMux<Slot> mux = new CarrierMux<>(4, Slot::new, producers);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final int producer = p;
            threads.add(new Thread(() ->
            {
                for (int i = 0; i < 4; i++)
                {
                    mux.claim().producer = producer;
                }
                mux.publish();
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread t : threads)
        {
            t.join(10_000);
        }
        // Where the lane counter would stand after 2^31 - 1 drains; looping that often would take minutes.
        final java.lang.reflect.Field next = CarrierMuxConsumer.class.getDeclaredField("next");
        next.setAccessible(true);
        next.setInt(mux, Integer.MAX_VALUE);

        long previousFirst = -1;
        for (int round = 0; round < 4; round++)
        {
            final List<Long> seen = new ArrayList<>();
            assertThat(mux.drain(slot -> seen.add(slot.producer), 1)).as("round " + round).isEqualTo(producers);
            assertThat(seen).as("one carrier of each lane").doesNotHaveDuplicates();
            assertThat(seen.get(0)).as("each drain starts on another lane").isNotEqualTo(previousFirst);
            previousFirst = seen.get(0);
        }
        assertThat(mux.hasPublished()).isFalse();
    }

    @Test
    void drainWhileStopsAcrossLanesAsSoonAsTheConditionFails() throws Exception
    {
        final int producers = 2;
        final CarrierMux<Slot> mux = new CarrierMux<>(4, Slot::new, producers);
        for (int p = 0; p < producers; p++)
        {
            final int producer = p;
            final Thread t = new Thread(() ->
            {
                for (int i = 0; i < 3; i++)
                {
                    final Slot slot = mux.claim();
                    slot.producer = producer;
                    slot.value = i;
                }
                mux.publish();
            });
            t.start();
            t.join(10_000);
        }
        final List<Slot> seen = new ArrayList<>();
        assertThat(mux.drainWhile(seen::add, 10, () -> seen.size() < 4)).as("stops inside the second lane")
            .isEqualTo(4);
        assertThat(mux.drainWhile(seen::add, 10, () -> false)).isZero();
        assertThat(mux.hasPublished()).isTrue();
        assertThat(mux.drainWhile(seen::add, 10, () -> true)).isEqualTo(2);
        assertThat(seen).extracting(slot -> slot.producer + ":" + slot.value)
            .containsExactlyInAnyOrder("0:0", "0:1", "0:2", "1:0", "1:1", "1:2");
        assertThat(mux.hasPublished()).isFalse();
    }

    @Test
    void aProducerLaneIsTheThreadsOwnAndFeedsTheSameDrain() throws Exception
    {
        final CarrierMux<Slot> mux = new CarrierMux<>(8, Slot::new, 2);
        final CarrierQueue<Slot> mine = mux.producerLane();
        assertThat(mux.producerLane()).isSameAs(mine);
        final AtomicReference<CarrierQueue<Slot>> theirs = new AtomicReference<>();
        final Thread other = new Thread(() ->
        {
            final CarrierQueue<Slot> lane = mux.producerLane();
            theirs.set(lane);
            final Slot slot = lane.claim();
            slot.value = 2;
            lane.publish();
        });
        other.start();
        other.join();
        assertThat(theirs.get()).isNotSameAs(mine);

        mine.claim().value = 1;
        mux.publish(); // the lookup path and the lane are one queue
        final List<Long> values = new ArrayList<>();
        mux.drain(slot -> values.add(slot.value), 8);
        assertThat(values).containsExactlyInAnyOrder(1L, 2L);
        assertThat(mux.producers()).isEqualTo(2);
    }

    @Test
    void aProducerPastTheBoundIsToldSo() throws Exception
    {
        final CarrierMux<Slot> mux = new CarrierMux<>(4, Slot::new, 1);
        mux.claim();
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final Thread second = new Thread(() ->
        {
            try
            {
                mux.claim();
            }
            catch (final Throwable t)
            {
                thrown.set(t);
            }
        }, "second-producer");
        second.start();
        second.join();
        assertThat(thrown.get()).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("at most 1 producer threads").hasMessageContaining("second-producer");
        assertThatThrownBy(() -> new CarrierMux<>(4, Slot::new, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
