package io.celer.bench.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pool the reference-passing queues take their messages from: it hands out each object once until it
 * comes back, and loses none, also with the taking and the returning thread running at once.
 */
class MessagePoolTest
{
    /** Hand-overs between the two threads at most. */
    private static final long MOST = 1_000_000;
    /** Hand-overs at least, however long they take. */
    private static final long LEAST = 10_000;
    /** How long the hand-overs go on once the least is done. */
    private static final Duration STRESS = Duration.ofSeconds(20);

    @Test
    void handsOutItsCapacityThenNothingUntilOneComesBack()
    {
        final MessagePool<Item> pool = new MessagePool<>(5, Item::new);
        assertThat(pool.capacity()).isEqualTo(8);
        final Set<Item> out = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < 8; i++)
        {
            out.add(pool.take());
        }
        assertThat(out).hasSize(8).doesNotContainNull();
        assertThat(pool.take()).isNull();

        final Item first = out.iterator().next();
        pool.giveBack(first);
        assertThat(pool.take()).isSameAs(first);
        assertThat(pool.take()).isNull();
    }

    @Test
    void refusesABadCapacity()
    {
        assertThatThrownBy(() -> new MessagePool<>(0, Item::new)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTakerAndAReturnerOnTwoThreadsNeverShareAnObjectAndLoseNone() throws InterruptedException
    {
        final int capacity = 16;
        final MessagePool<Item> pool = new MessagePool<>(capacity, Item::new);
        final OneToOneConcurrentArrayQueue<Item> inFlight = new OneToOneConcurrentArrayQueue<>(capacity);
        final AtomicLong returned = new AtomicLong();
        final AtomicLong takenInAll = new AtomicLong(-1);
        final AtomicReference<String> problem = new AtomicReference<>();

        final Thread returner = new Thread(() ->
        {
            for (long n = 0; problem.get() == null && n != takenInAll.get(); )
            {
                final Item item = inFlight.poll();
                if (item == null)
                {
                    // Yielding, not spinning: on a loaded machine the taker may wait for this very CPU.
                    Thread.yield();
                    continue;
                }
                if (!item.out.compareAndSet(true, false))
                {
                    problem.compareAndSet(null, "returned an object that was not out");
                }
                pool.giveBack(item);
                returned.lazySet(++n);
            }
        }, "returner");
        returner.start();

        // A million hand-overs take a second on a quiet machine; where both threads share one CPU with others,
        // each wait lasts a scheduler slice, and the hand-overs stop at the time bound, past the least.
        final long deadline = System.nanoTime() + STRESS.toNanos();
        long taken = 0;
        long full = 0;
        while (taken < MOST && problem.get() == null && (taken < LEAST || System.nanoTime() - deadline < 0))
        {
            final Item item = pool.take();
            if (item == null)
            {
                full++;
                Thread.yield();
                continue;
            }
            if (!item.out.compareAndSet(false, true))
            {
                problem.compareAndSet(null, "handed out an object that was already out");
            }
            taken++;
            // Never more out than the pool holds, so the hand-over queue cannot be full.
            assertThat(inFlight.offer(item)).isTrue();
        }
        takenInAll.set(taken);
        returner.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(problem.get()).isNull();
        assertThat(taken).as("hand-overs").isGreaterThanOrEqualTo(LEAST);
        assertThat(returned.get()).isEqualTo(taken);
        assertThat(full).as("the taker outran the returner at least once").isPositive();
        final Set<Item> back = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < capacity; i++)
        {
            final Item item = pool.take();
            assertThat(item).isNotNull();
            assertThat(item.out).isFalse();
            back.add(item);
        }
        assertThat(back).as("every object came back, each once").hasSize(capacity);
        assertThat(pool.take()).isNull();
    }

    /**
     * A pooled object that knows whether it is out.
     */
    static final class Item
    {
        final AtomicBoolean out = new AtomicBoolean();
    }
}
