package io.celer.queue;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A ring of two, full with a published batch: the consumer drains it (one release for both carriers) while
 * the producer claims both slots again, refills them and publishes them as a new batch, whose flag goes into
 * the slot the consumer read the old batch's flag from. The producer may only refill after the consumer's
 * reads, and the consumer must never take the new batch for the old one; the arbiter drains what is left.
 */
@JCStressTest
@Description("CarrierQueue: a slot is not refilled before its release, and its new flag is not mistaken")
@Outcome(id = "12, 0, 0", expect = Expect.ACCEPTABLE, desc = "the producer found the ring still full")
@Outcome(id = "12, 2, 34", expect = Expect.ACCEPTABLE, desc = "both slots refilled after the one release")
@Outcome(expect = Expect.FORBIDDEN, desc = "a carrier was refilled while read, lost, duplicated or torn")
@State
public class CarrierQueueSlotReuseStress
{
    private final CarrierQueue<Pair> queue = new CarrierQueue<>(2, Pair::new);

    /**
     * Fills the ring with one batch.
     */
    public CarrierQueueSlotReuseStress()
    {
        Pair.publish(queue, 1, 2);
    }

    /**
     * Consumer: one drain of the ring.
     *
     * @param r r1: the marks it read, in order, as digits (7 for a torn carrier).
     */
    @Actor
    public void consumer(final III_Result r)
    {
        r.r1 = Pair.drainMarks(queue);
    }

    /**
     * Producer: refills as many slots as it may and publishes them as one batch.
     *
     * @param r r2: how many slots it got back.
     */
    @Actor
    public void producer(final III_Result r)
    {
        final int refilled = Pair.refill(queue, 3, 4);
        queue.publish();
        r.r2 = refilled;
    }

    /**
     * After both: what is left.
     *
     * @param r r3: the marks left.
     */
    @Arbiter
    public void rest(final III_Result r)
    {
        r.r3 = Pair.drainMarks(queue);
    }
}
