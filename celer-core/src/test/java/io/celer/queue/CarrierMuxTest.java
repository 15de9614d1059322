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
