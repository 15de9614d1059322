package io.celer.queue;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The producer publishes two carriers one at a time, the second after the ring wrapped onto a released slot
 * (capacity 2, one carrier consumed beforehand); the consumer drains once meanwhile and the arbiter drains
 * what is left afterwards. Each side's result lists the marks it saw, in order, as digits.
 */
@JCStressTest
@Description("CarrierQueue: every carrier arrives once, whole and in order")
@Outcome(id = "0, 12", expect = Expect.ACCEPTABLE, desc = "the consumer drained before any publication")
@Outcome(id = "1, 2", expect = Expect.ACCEPTABLE, desc = "the consumer drained between the two publications")
@Outcome(id = "12, 0", expect = Expect.ACCEPTABLE, desc = "the consumer drained after both")
@Outcome(expect = Expect.FORBIDDEN, desc = "a carrier was lost, duplicated, reordered or seen half-written")
@State
public class CarrierQueueOrderStress
{
    private final CarrierQueue<Pair> queue = new CarrierQueue<>(2, Pair::new);

    /**
     * Moves the ring off its start, so the second carrier reuses a released slot.
     */
    public CarrierQueueOrderStress()
    {
        Pair.advance(queue, 9);
    }

    /**
     * Producer: two carriers, published one at a time.
     */
    @Actor
    public void producer()
    {
        Pair.publish(queue, 1);
        Pair.publish(queue, 2);
    }

    /**
     * Consumer: one drain.
     *
     * @param r r1: the marks it saw.
     */
    @Actor
    public void consumer(final II_Result r)
    {
        r.r1 = Pair.drainMarks(queue);
    }

    /**
     * After both: what is left.
     *
     * @param r r2: the marks left.
     */
    @Arbiter
    public void rest(final II_Result r)
    {
        r.r2 = Pair.drainMarks(queue);
    }
}
