package io.celer.queue;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * One producer claims a carrier, writes both of its fields and publishes; the consumer polls at the same time.
 * The release store of {@code publish()} and the acquire load of {@code poll()} must carry the carrier's
 * plain writes across.
 */
@JCStressTest
@Description("CarrierQueue: a polled carrier is fully written")
@Outcome(id = "-1", expect = Expect.ACCEPTABLE, desc = "polled before the publication: nothing yet")
@Outcome(id = "11", expect = Expect.ACCEPTABLE, desc = "polled after the publication: the whole carrier")
@Outcome(expect = Expect.FORBIDDEN, desc = "a half-written or stale carrier reached the consumer")
@State
public class CarrierQueuePublicationStress
{
    private final CarrierQueue<Pair> queue = new CarrierQueue<>(2, Pair::new);

    /**
     * Producer: claim, fill, publish.
     */
    @Actor
    public void producer()
    {
        Pair.publish(queue, 1);
    }

    /**
     * Consumer: poll once.
     *
     * @param r what it saw, -1 for nothing.
     */
    @Actor
    public void consumer(final I_Result r)
    {
        r.r1 = Pair.seenOrNone(queue.poll());
    }
}
