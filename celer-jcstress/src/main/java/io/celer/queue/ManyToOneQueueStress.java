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
 * Two producers offer an element each, written with plain stores before the offer; the second then drains, as a
 * reactor thread that queues a callback of its own and drains its queue; the arbiter drains the rest. Every element
 * is taken exactly once, and whole: a drain never sees a claimed slot's element half-published. (Two actors, so
 * that the test runs on two CPUs.)
 */
@JCStressTest
@Description("ManyToOneQueue: an offer from another thread against an offer and a drain; each element once, whole")
@Outcome(id = "0, 3", expect = Expect.ACCEPTABLE, desc = "the other's slot was claimed first, not yet published: "
    + "the drain stops there, in order")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "the drain took its own element; the arbiter the other")
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
     * Another thread offers.
     */
    @Actor
    public void producer()
    {
        final Item item = new Item();
        item.value = 1;
        queue.offer(item);
    }

    /**
     * The consumer's thread offers, then drains.
     *
     * @param r r1: the sum of what it took.
     */
    @Actor
    public void consumer(final II_Result r)
    {
        final Item item = new Item();
        item.value = 2;
        queue.offer(item);
        final int[] sum = new int[1];
        queue.drain(taken -> sum[0] += taken.value == 0 ? 100 : taken.value);
        r.r1 = sum[0];
    }

    /**
     * After both: what is left.
     *
     * @param r r2: the sum of the rest.
     */
    @Arbiter
    public void rest(final II_Result r)
    {
        final int[] sum = new int[1];
        queue.drain(taken -> sum[0] += taken.value == 0 ? 100 : taken.value);
        r.r2 = sum[0];
    }
}
