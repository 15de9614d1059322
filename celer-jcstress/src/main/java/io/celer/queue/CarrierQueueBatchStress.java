package io.celer.queue;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The producer fills two carriers and publishes them with one call, which is one release store into the flag
 * of the first one's slot; the consumer polls twice meanwhile. The batch starts on the ring's last slot and
 * ends on its first, whose flag still holds an earlier lap's batch end: seeing the batch's flag must carry both
 * carriers' writes across, and the stale flag must not pass for a publication.
 */
@JCStressTest
@Description("CarrierQueue: a consumer that sees a batch's flag sees every carrier of the batch, whole")
@Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "polled before the publication: nothing yet")
@Outcome(id = "-1, 11", expect = Expect.ACCEPTABLE, desc = "published between the polls: the batch's first")
@Outcome(id = "11, 22", expect = Expect.ACCEPTABLE, desc = "polled after it: the whole batch, in order")
@Outcome(expect = Expect.FORBIDDEN, desc = "half a batch, a half-written carrier or a stale one")
@State
public class CarrierQueueBatchStress
{
    private final CarrierQueue<Pair> queue = new CarrierQueue<>(2, Pair::new);

    /**
     * One lap and a half: a batch of two from slot 0, then one carrier on slot 0 again, all drained; the
     * next batch starts on slot 1.
     */
    public CarrierQueueBatchStress()
    {
        Pair.advance(queue, 8, 8);
        Pair.advance(queue, 9);
    }

    /**
     * Producer: two carriers, one publication.
     */
    @Actor
    public void producer()
    {
        queue.claim().fill(1);
        queue.claim().fill(2);
        queue.publish();
    }

    /**
     * Consumer: polls twice.
     *
     * @param r r1 and r2: what each poll saw, -1 for nothing.
     */
    @Actor
    public void consumer(final II_Result r)
    {
        r.r1 = Pair.seenOrNone(queue.poll());
        r.r2 = Pair.seenOrNone(queue.poll());
    }
}
