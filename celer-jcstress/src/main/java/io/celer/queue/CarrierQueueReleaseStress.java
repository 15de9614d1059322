package io.celer.queue;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A queue of one carrier, published and full: the consumer polls it, reads it and releases it while the
 * producer tries to claim it again and overwrite it. The producer may only get the carrier back after the
 * consumer's reads: {@code release()} is a release store, {@code claim()} reads it with acquire.
 */
@JCStressTest
@Description("CarrierQueue: a carrier is not handed back to the producer before the consumer released it")
@Outcome(id = "11, 0", expect = Expect.ACCEPTABLE, desc = "claimed before the release: the queue was still full")
@Outcome(id = "11, 1", expect = Expect.ACCEPTABLE, desc = "claimed after the release, the consumer read first")
@Outcome(expect = Expect.FORBIDDEN, desc = "the consumer read a carrier the producer was already refilling")
@State
public class CarrierQueueReleaseStress
{
    private final CarrierQueue<Pair> queue = new CarrierQueue<>(1, Pair::new);

    /**
     * Fills the only carrier and publishes it.
     */
    public CarrierQueueReleaseStress()
    {
        Pair.publish(queue, 1);
    }

    /**
     * Consumer: poll, read, release.
     *
     * @param r r1: what it read.
     */
    @Actor
    public void consumer(final II_Result r)
    {
        r.r1 = queue.poll().seen();
        queue.release();
    }

    /**
     * Producer: claim the carrier again and overwrite it.
     *
     * @param r r2: 1 when the claim succeeded.
     */
    @Actor
    public void producer(final II_Result r)
    {
        r.r2 = Pair.refill(queue, 2, 2);
    }
}
