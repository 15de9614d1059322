package io.celer.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.celer.test.Await;
import io.celer.test.SteadyAllocation;

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

    @Test
    void aBatchIsPublishedWholeAndTheConsumerStopsAtItsEnd()
    {
        final CarrierQueue<Slot> queue = new CarrierQueue<>(8, Slot::new);
        queue.claim().value = 1;
        queue.claim().value = 2;
        queue.claim().value = 3;
        assertThat(queue.hasPublished()).as("claimed, not published").isFalse();
        queue.publish();
        queue.publish();
        queue.claim().value = 4;
        assertThat(queue.poll().value).isEqualTo(1);
        assertThat(queue.poll().value).isEqualTo(2);
        assertThat(queue.poll().value).isEqualTo(3);
        assertThat(queue.poll()).as("the fourth is claimed but not published").isNull();
        assertThat(queue.hasPublished()).isFalse();
        queue.publish();
        assertThat(queue.hasPublished()).isTrue();
        assertThat(queue.poll().value).isEqualTo(4);
        assertThat(queue.poll()).isNull();
    }

    @Test
    void batchesOfEverySizeAcrossManyLapsArriveOnceAndInOrder()
    {
        // Batches start anywhere in the ring and the consumer stops anywhere in them, so every slot's flag
        // is left stale from laps before while the ring goes round: none of them may pass for a publication.
        final CarrierQueue<Slot> queue = new CarrierQueue<>(16, Slot::new);
        final SplittableRandom random = new SplittableRandom(42);
        final long[] expected = {0};
        long sent = 0;
        for (int round = 0; round < 200_000; round++)
        {
            final int batch = random.nextInt(queue.capacity() + 1);
            for (int i = 0; i < batch; i++)
            {
                final Slot slot = queue.claim();
                if (slot == null)
                {
                    break;
                }
                slot.value = sent++;
            }
            if (random.nextInt(4) != 0)
            {
                queue.publish();
            }
            final int stopAfter = random.nextInt(queue.capacity() + 1);
            final int[] seen = {0};
            queue.drainWhile(slot ->
            {
                assertThat(slot.value).isEqualTo(expected[0]);
                expected[0]++;
                seen[0]++;
            }, queue.capacity(), () -> seen[0] < stopAfter);
        }
        queue.publish();
        queue.drain(slot -> assertThat(slot.value).isEqualTo(expected[0]++), queue.capacity());
        assertThat(expected[0]).isEqualTo(sent).isGreaterThan(1_000_000L);
        assertThat(queue.hasPublished()).isFalse();
    }

    @Test
    void neitherSideAllocatesOnceWarm() throws Exception
    {
        final int window = 100_000;
        final CarrierQueue<Slot> queue = new CarrierQueue<>(256, Slot::new);
        final long[] sum = {0};
        final AtomicLong taken = new AtomicLong();
        final AtomicBoolean stop = new AtomicBoolean();
        final Consumer<Slot> add = slot -> sum[0] += slot.value;
        final Thread consumer = new Thread(() ->
        {
            long drainedSoFar = 0;
            while (!stop.get())
            {
                final int drained = queue.drain(add, 64);
                if (drained == 0)
                {
                    Thread.onSpinWait();
                }
                else
                {
                    drainedSoFar += drained;
                    taken.lazySet(drainedSoFar);
                }
            }
        }, "consumer");
        consumer.start();

        // This thread is the producer, and is measured: the window's wait allocates nothing either.
        final Runnable spin = Thread::onSpinWait;
        final long[] sent = {0};
        final BooleanSupplier consumed = () -> taken.get() == sent[0];
        final List<Long> windows;
        try
        {
            windows = SteadyAllocation.perWindow(List.of(Thread.currentThread(), consumer), () ->
            {
                for (int i = 0; i < window; i++)
                {
                    queue.claim(spin).value = 1;
                    if ((i & 7) == 7)
                    {
                        queue.publish();
                    }
                }
                queue.publish();
                sent[0] += window;
                Await.spinUntil("the consumer to take the window", consumed);
            });
        }
        finally
        {
            stop.set(true);
            consumer.join(60_000);
        }
        assertThat(consumer.isAlive()).isFalse();
        assertThat(sum[0]).isEqualTo(sent[0]);
        assertThat(windows).as("bytes the producer and the consumer allocated per window of %d carriers", window)
            .endsWith(0L);
    }
}
