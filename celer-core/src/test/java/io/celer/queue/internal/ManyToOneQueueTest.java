package io.celer.queue.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The reactor's callback queue: bounded, in order, nothing lost or repeated, from many producer threads.
 */
class ManyToOneQueueTest
{
    @Test
    void capacityIsRoundedUpToAPowerOfTwo()
    {
        assertThat(new ManyToOneQueue<>(1).capacity()).isEqualTo(1);
        assertThat(new ManyToOneQueue<>(3).capacity()).isEqualTo(4);
        assertThat(new ManyToOneQueue<>(4).capacity()).isEqualTo(4);
        assertThat(new ManyToOneQueue<>(1000).capacity()).isEqualTo(1024);
        assertThatThrownBy(() -> new ManyToOneQueue<>(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fullRefusesEmptyDrainsNothingAndOrderIsKept()
    {
        final ManyToOneQueue<Integer> queue = new ManyToOneQueue<>(4);
        final List<Integer> taken = new ArrayList<>();
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.drain(taken::add)).isZero();
        for (int i = 0; i < 4; i++)
        {
            assertThat(queue.offer(i)).isTrue();
        }
        assertThat(queue.offer(4)).as("full").isFalse();
        assertThat(queue.size()).isEqualTo(4);
        assertThat(queue.drain(taken::add)).isEqualTo(4);
        assertThat(taken).containsExactly(0, 1, 2, 3);
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.offer(5)).as("room again, the slots wrapped").isTrue();
        assertThatThrownBy(() -> queue.offer(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void whatADrainedElementOffersWaitsForTheNextDrain()
    {
        final ManyToOneQueue<Integer> queue = new ManyToOneQueue<>(8);
        queue.offer(1);
        final List<Integer> taken = new ArrayList<>();
        assertThat(queue.drain(e ->
        {
            taken.add(e);
            if (e < 3)
            {
                queue.offer(e + 1);
            }
        })).isEqualTo(1);
        assertThat(queue.drain(taken::add)).isEqualTo(1);
        assertThat(taken).containsExactly(1, 2);
    }

    @Test
    void manyProducersLoseNothingAndKeepEachOnesOrder() throws Exception
    {
        final int producers = 3;
        final int each = 200_000;
        final ManyToOneQueue<long[]> queue = new ManyToOneQueue<>(256);
        final Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++)
        {
            final int id = p;
            threads[p] = new Thread(() ->
            {
                for (int i = 0; i < each; i++)
                {
                    final long[] item = {id, i};
                    while (!queue.offer(item))
                    {
                        Thread.onSpinWait();
                    }
                }
            }, "producer-" + p);
            threads[p].start();
        }
        final long[] next = new long[producers];
        final boolean[] inOrder = {true};
        long taken = 0;
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (taken < (long)producers * each && System.nanoTime() < deadline)
        {
            taken += queue.drain(item ->
            {
                inOrder[0] &= item[1] == next[(int)item[0]];
                next[(int)item[0]] = item[1] + 1;
            });
        }
        for (final Thread thread : threads)
        {
            thread.join(60_000);
        }
        assertThat(taken).isEqualTo((long)producers * each);
        assertThat(inOrder[0]).as("each producer's elements in its order").isTrue();
        assertThat(queue.isEmpty()).isTrue();
    }
}
