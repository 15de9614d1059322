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
 * The reactor's wake-up protocol as it runs: a producer publishes into a carrier queue (a release store) and
 * then asks the {@link SleepFlag} whether the reactor may be asleep; the reactor announces its sleep and then
 * looks at the queue once more. Whatever the interleaving, one of them must see the other: either the producer
 * unparks the reactor or the reactor finds the work and does not park.
 */
@JCStressTest
@Description("SleepFlag: a producer's wake-up and the reactor's last look are never both missed")
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE, desc = "both saw each other: an unpark in vain")
@Outcome(id = "true, false", expect = Expect.ACCEPTABLE, desc = "the reactor parks, the producer unparks it")
@Outcome(id = "false, true", expect = Expect.ACCEPTABLE, desc = "the reactor sees the work and does not park")
@Outcome(id = "false, false", expect = Expect.FORBIDDEN, desc = "lost wake-up: the reactor sleeps with work")
@State
public class SleepFlagStress
{
    private final SleepFlag flag = new SleepFlag();
    private final CarrierQueue<int[]> queue = new CarrierQueue<>(2, () -> new int[1]);

    /**
     * Producer: publish, then decide whether to unpark.
     *
     * @param r r1: whether it would unpark.
     */
    @Actor
    public void producer(final ZZ_Result r)
    {
        queue.claim()[0] = 1;
        queue.publish();
        r.r1 = flag.mayBeAsleep();
    }

    /**
     * Reactor: announce the sleep, then look once more.
     *
     * @param r r2: whether it found work, so stays awake.
     */
    @Actor
    public void reactor(final ZZ_Result r)
    {
        flag.fallAsleep();
        r.r2 = queue.hasPublished();
    }
}
