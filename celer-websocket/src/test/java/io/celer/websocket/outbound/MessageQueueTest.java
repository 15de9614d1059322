package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.celer.test.Allocations;

/**
 * The bounded message queue against a plain deque as its model: same order, same contents, same refusals at both
 * bounds, storage within its bound, and no allocation once grown.
 */
class MessageQueueTest
{
    private static ByteBuffer message(final int length, final int seed)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++)
        {
            buffer.put(i, (byte)(seed * 31 + i));
        }
        return buffer;
    }

    @Test
    void refusesAtTheMessageBoundAndAtTheByteBound()
    {
        final MessageQueue byCount = new MessageQueue(3, 1000, 100);
        for (int i = 0; i < 3; i++)
        {
            assertThat(byCount.offer(2, message(10, i))).isTrue();
        }
        final ByteBuffer refused = message(10, 9);
        assertThat(byCount.offer(2, refused)).isFalse();
        assertThat(refused.position()).as("a refused payload is untouched").isZero();
        assertThat(byCount.size()).isEqualTo(3);

        final MessageQueue byBytes = new MessageQueue(100, 250, 100);
        assertThat(byBytes.offer(1, message(100, 1))).isTrue();
        assertThat(byBytes.offer(2, message(100, 2))).isTrue();
        assertThat(byBytes.offer(2, message(51, 3))).isFalse();
        assertThat(byBytes.offer(2, message(50, 3))).isTrue();
        assertThat(byBytes.bytes()).isEqualTo(250);
        assertThat(byBytes.peekKind()).isEqualTo(1);
        byBytes.remove();
        assertThat(byBytes.offer(2, message(100, 4))).isTrue();
        assertThatThrownBy(() -> byBytes.offer(2, message(101, 5))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEmptyQueueHasNoStorageAndRefusesToPeek()
    {
        final MessageQueue queue = new MessageQueue(10, 1 << 20, 1024);
        assertThat(queue.storageCapacity()).isZero();
        assertThat(queue.isEmpty()).isTrue();
        assertThatThrownBy(queue::peek).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(queue::remove).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new MessageQueue(10, 100, 101)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keepsOrderAndContentsThroughWrapsGrowthAndDropsLikeADeque()
    {
        final int maxMessages = 50;
        final int maxBytes = 5_000;
        final int maxLength = 700;
        final MessageQueue queue = new MessageQueue(maxMessages, maxBytes, maxLength);
        final ArrayDeque<int[]> model = new ArrayDeque<>(); // {kind, length, seed}
        final SplittableRandom random = new SplittableRandom(11);
        int modelBytes = 0;
        for (int step = 0; step < 200_000; step++)
        {
            if (random.nextInt(100) < 55)
            {
                final int length = random.nextInt(10) == 0 ? 0 : random.nextInt(maxLength + 1);
                final int kind = 1 + random.nextInt(2);
                final boolean fits = model.size() < maxMessages && modelBytes + length <= maxBytes;
                assertThat(queue.offer(kind, message(length, step))).as("offer at step %d", step).isEqualTo(fits);
                if (fits)
                {
                    model.addLast(new int[] {kind, length, step});
                    modelBytes += length;
                }
            }
            else if (!model.isEmpty())
            {
                final int[] expected = model.removeFirst();
                assertThat(queue.peekKind()).isEqualTo(expected[0]);
                assertThat(queue.peekLength()).isEqualTo(expected[1]);
                assertThat(queue.peek()).as("payload at step %d", step).isEqualTo(message(expected[1], expected[2]));
                queue.remove();
                modelBytes -= expected[1];
            }
            assertThat(queue.size()).isEqualTo(model.size());
            assertThat(queue.bytes()).isEqualTo(modelBytes);
            assertThat((long)queue.storageCapacity()).isLessThanOrEqualTo(queue.storageBound());
        }
        queue.clear();
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.bytes()).isZero();
    }

    @Test
    void offeringAndRemovingAllocateNothingOnceGrown()
    {
        final MessageQueue queue = new MessageQueue(64, 16_000, 250);
        final ByteBuffer[] payloads = new ByteBuffer[7];
        for (int i = 0; i < payloads.length; i++)
        {
            payloads[i] = message(100 + 21 * i, i);
        }
        final Runnable fillAndDrop = () ->
        {
            for (int i = 0; i < 200; i++)
            {
                final ByteBuffer payload = payloads[i % payloads.length];
                payload.clear();
                while (!queue.offer(2, payload))
                {
                    queue.peek();
                    queue.remove();
                }
            }
        };
        for (int i = 0; i < 2_000; i++)
        {
            fillAndDrop.run();
        }
        final long before = Allocations.currentThreadAllocatedBytes();
        for (int i = 0; i < 2_000; i++)
        {
            fillAndDrop.run();
        }
        assertThat(Allocations.currentThreadAllocatedBytes() - before).isZero();
        assertThat((long)queue.storageCapacity()).isLessThanOrEqualTo(queue.storageBound());
    }

    @Test
    void drainedSegmentsGoBackToTheSharedPoolForTheNextQueueToLag()
    {
        final SegmentPool pool = new SegmentPool(1_024, Long.MAX_VALUE);
        final MessageQueue first = new MessageQueue(1_000, 20_000, 250, pool);
        final MessageQueue second = new MessageQueue(1_000, 20_000, 250, pool);
        final ByteBuffer payload = message(200, 1);
        for (int i = 0; i < 50; i++)
        {
            assertThat(first.offer(2, payload.clear())).isTrue();
        }
        final long allocated = pool.allocatedBytes();
        assertThat(first.storageCapacity()).isEqualTo(allocated).isPositive();
        assertThat(pool.freeBytes()).isZero();

        for (int i = 0; i < 50; i++)
        {
            assertThat(first.peek()).isEqualTo(message(200, 1));
            first.remove();
        }
        assertThat(first.storageCapacity()).as("an empty queue holds nothing").isZero();
        assertThat(pool.freeBytes()).isEqualTo(allocated);

        for (int i = 0; i < 50; i++)
        {
            assertThat(second.offer(1, payload.clear())).isTrue();
        }
        assertThat(pool.allocatedBytes()).as("the second queue reuses the first's segments").isEqualTo(allocated);
    }

    @Test
    void aCappedPoolFillsTheQueuesBeforeTheirOwnBoundsAndTakesBackWhatTheyRemove()
    {
        final SegmentPool pool = new SegmentPool(1_024, 4 * 1_024);
        final MessageQueue first = new MessageQueue(1_000, 100_000, 250, pool);
        final MessageQueue second = new MessageQueue(1_000, 100_000, 250, pool);
        final ByteBuffer payload = message(240, 7);
        int taken = 0;
        while (first.offer(2, payload.clear()))
        {
            taken++;
        }
        // Four segments of four 253-byte records (240 bytes and the header) each.
        assertThat(taken).isEqualTo(16);
        assertThat(first.storageCapacity()).isEqualTo(4 * 1_024);
        assertThat(second.offer(2, payload.clear())).as("no segment left for another queue").isFalse();
        assertThat(payload.position()).isZero();

        for (int i = 0; i < 4; i++)
        {
            first.remove();
        }
        assertThat(first.storageCapacity()).as("the first segment, read, goes back").isEqualTo(3 * 1_024);
        assertThat(second.offer(2, payload.clear())).isTrue();
        assertThat(second.peek()).isEqualTo(message(240, 7));
        assertThat(pool.allocatedBytes()).isEqualTo(4 * 1_024);
    }

    @Test
    void queuesTakingTurnsToLagAllocateNothingOnceThePoolHoldsEnough()
    {
        final SegmentPool pool = new SegmentPool(2_048, Long.MAX_VALUE);
        final MessageQueue[] queues = new MessageQueue[4];
        for (int i = 0; i < queues.length; i++)
        {
            queues[i] = new MessageQueue(64, 16_000, 250, pool);
        }
        final ByteBuffer payload = message(230, 3);
        final Runnable lagInTurn = () ->
        {
            for (final MessageQueue queue : queues)
            {
                for (int i = 0; i < 200; i++)
                {
                    while (!queue.offer(2, payload.clear()))
                    {
                        queue.remove();
                    }
                }
                queue.clear();
            }
        };
        for (int i = 0; i < 2_000; i++)
        {
            lagInTurn.run();
        }
        final long allocated = pool.allocatedBytes();
        final long before = Allocations.currentThreadAllocatedBytes();
        for (int i = 0; i < 2_000; i++)
        {
            lagInTurn.run();
        }
        assertThat(Allocations.currentThreadAllocatedBytes() - before).isZero();
        assertThat(pool.allocatedBytes()).as("one queue's worth, shared").isEqualTo(allocated)
            .isLessThanOrEqualTo(queues[0].storageBound());
    }
}
