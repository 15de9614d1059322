package io.celer.queue;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import io.celer.queue.internal.ManyToOneQueue;

/**
 * Two producers offer an element each, written with plain stores before the offer, while the consumer drains; the
 * arbiter drains the rest. Every element is taken exactly once, and whole: the consumer never sees a claimed slot's
 * element half-published.
 */
@JCStressTest
@Description("ManyToOneQueue: offers from two threads against a concurrent drain; each element once, whole")
@Outcome(id = "0, 3", expect = Expect.ACCEPTABLE, desc = "the drain came first; the arbiter took both")
@Outcome(id = "1, 2", expect = Expect.ACCEPTABLE, desc = "the drain took the first producer's")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "the drain took the second producer's")
@Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "the drain took both")
@Outcome(expect = Expect.FORBIDDEN, desc = "an element was lost, taken twice or seen before its fields")
@State
public class ManyToOneQueueStress
{
    /** An element whose field is written with a plain store before it is offered. */
    static final class Item
    {
        int value;
    }

    private final ManyToOneQueue<Item> queue = new ManyToOneQueue<>(4);

    /**
     * The first producer.
     */
    @Actor
    public void first()
    {
        final Item item = new Item();
        item.value = 1;
        queue.offer(item);
    }

    /**
     * The second producer.
     */
    @Actor
    public void second()
    {
        final Item item = new Item();
        item.value = 2;
        queue.offer(item);
    }

    /**
     * The consumer: one drain.
     *
     * @param r r1: the sum of what it took.
     */
    @Actor
    public void consumer(final II_Result r)
    {
        final int[] sum = new int[1];
        queue.drain(item -> sum[0] += item.value == 0 ? 100 : item.value);
        r.r1 = sum[0];
    }

    /**
     * After all: what is left.
     *
     * @param r r2: the sum of the rest.
     */
    @Arbiter
    public void rest(final II_Result r)
    {
        final int[] sum = new int[1];
        queue.drain(item -> sum[0] += item.value == 0 ? 100 : item.value);
        r.r2 = sum[0];
    }
}
