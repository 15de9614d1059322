package io.celer.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class CarrierQueueTest
{
    /**
     * A mutable carrier.
     */
    static final class Slot
    {
        long value;
        long producer;
    }

    @Test
    void roundsTheCapacityUpToAPowerOfTwoAndBuildsEveryCarrierOnce()
    {
        final int[] built = {0};
        final CarrierQueue<Slot> queue = new CarrierQueue<>(5, () ->
        {
            built[0]++;
            return new Slot();
        });
        assertThat(queue.capacity()).isEqualTo(8);
        assertThat(built[0]).isEqualTo(8);
        assertThatThrownBy(() -> new CarrierQueue<>(0, Slot::new)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFullQueueRefusesAClaimUntilTheConsumerReleases()
    {
        final CarrierQueue<Slot> queue = new CarrierQueue<>(4, Slot::new);
        for (int i = 0; i < 4; i++)
        {
            queue.claim().value = i;
        }
        assertThat(queue.claim()).isNull();
        assertThat(queue.poll()).as("nothing published yet").isNull();
        queue.publish();
        assertThat(queue.poll().value).isZero();
        assertThat(queue.claim()).as("polled but not released").isNull();
        queue.release();
        assertThat(queue.claim()).isNotNull();
    }

    @Test
    void drainWhileStopsAsSoonAsTheConditionFailsAndLeavesTheRestPublished()
    {
        final CarrierQueue<Slot> queue = new CarrierQueue<>(8, Slot::new);
        for (int i = 0; i < 5; i++)
        {
            queue.claim().value = i;
        }
        queue.publish();
        final java.util.List<Long> seen = new java.util.ArrayList<>();
        // The action itself turns the condition false after the second carrier.
        assertThat(queue.drainWhile(slot -> seen.add(slot.value), 10, () -> seen.size() < 2)).isEqualTo(2);
        assertThat(seen).containsExactly(0L, 1L);
        assertThat(queue.drainWhile(slot -> seen.add(slot.value), 10, () -> false)).isZero();
        assertThat(queue.hasPublished()).isTrue();
        assertThat(queue.drainWhile(slot -> seen.add(slot.value), 10, () -> true)).isEqualTo(3);
        assertThat(seen).containsExactly(0L, 1L, 2L, 3L, 4L);
        for (int i = 0; i < 8; i++)
        {
            assertThat(queue.claim()).as("every drained carrier was released").isNotNull();
        }
    }

    @Test
    void carriersAreReusedInOrder()
    {
        final CarrierQueue<Slot> queue = new CarrierQueue<>(2, Slot::new);
        final Slot first = queue.claim();
        queue.publish();
        queue.drain(slot -> { }, 10);
        queue.claim();
        assertThat(queue.claim()).as("the ring came round to the first carrier").isSameAs(first);
    }

    @Test
    void aThrowingActionStillReleasesWhatItTook()
    {
        final CarrierQueue<Slot> queue = new CarrierQueue<>(2, Slot::new);
        queue.claim();
        queue.claim();
        queue.publish();
        assertThatThrownBy(() -> queue.drain(slot ->
        {
            throw new IllegalStateException("expected");
        }, 10)).isInstanceOf(IllegalStateException.class);
        assertThat(queue.claim()).as("the failed carrier was released").isNotNull();
        assertThat(queue.poll()).as("the second carrier is still there").isNotNull();
    }

    @Test
    void oneProducerOneConsumerOnRealThreadsLoseNothing() throws Exception
    {
        final long count = 5_000_000;
        final CarrierQueue<Slot> queue = new CarrierQueue<>(1024, Slot::new);
        final AtomicReference<String> failure = new AtomicReference<>();
        final long[] sum = {0};
        final Thread consumer = new Thread(() ->
        {
            long expected = 0;
            while (expected < count)
            {
                Slot slot;
                while ((slot = queue.poll()) != null)
                {
                    if (slot.value != expected)
                    {
                        failure.compareAndSet(null, "expected " + expected + " got " + slot.value);
                    }
                    sum[0] += slot.value;
                    expected++;
                }
                queue.release();
                Thread.onSpinWait();
            }
        });
        consumer.start();
        for (long i = 0; i < count; i++)
        {
            queue.claim(Thread::yield).value = i;
            if ((i & 63) == 63)
            {
                queue.publish();
            }
        }
        queue.publish();
        consumer.join(60_000);
        assertThat(consumer.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
        assertThat(sum[0]).isEqualTo(count * (count - 1) / 2);
    }
}
