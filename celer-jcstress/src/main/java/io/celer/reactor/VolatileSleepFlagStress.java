package io.celer.reactor;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import io.celer.queue.CarrierQueue;

/**
 * The wake-up protocol the reactor used before {@link SleepFlag}, kept as a witness: a plain volatile flag.
 * The producer's release-only publication may be overtaken by its volatile read of the flag, so both sides can
 * miss each other and the reactor sleeps with work queued. The outcome is marked interesting, not forbidden:
 * this test documents why the fences are there and shows whether this machine reorders that way.
 */
@JCStressTest
@Description("A volatile sleep flag alone: the lost wake-up that SleepFlag forbids")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE, desc = "both saw each other: an unpark in vain")
@Outcome(id = "true, false", expect = Expect.ACCEPTABLE, desc = "the reactor parks, the producer unparks it")
@Outcome(id = "false, true", expect = Expect.ACCEPTABLE, desc = "the reactor sees the work and does not park")
@Outcome(id = "false, false", expect = Expect.ACCEPTABLE_INTERESTING,
    desc = "lost wake-up: the release store was passed by the volatile load, as the JMM allows")
@State
public class VolatileSleepFlagStress
{
    private final CarrierQueue<int[]> queue = new CarrierQueue<>(2, () -> new int[1]);
    private volatile boolean sleeping;

    /**
     * Producer: publish, then read the flag.
     *
     * @param r r1: whether it would unpark.
     */
    @Actor
    public void producer(final ZZ_Result r)
    {
        queue.claim()[0] = 1;
        queue.publish();
        r.r1 = sleeping;
    }

    /**
     * Reactor: raise the flag, then look once more.
     *
     * @param r r2: whether it found work.
     */
    @Actor
    public void reactor(final ZZ_Result r)
    {
        sleeping = true;
        r.r2 = queue.hasPublished();
    }
}
