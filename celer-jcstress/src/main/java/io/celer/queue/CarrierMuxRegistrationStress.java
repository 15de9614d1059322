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
 * Two producer threads claim their first carrier at the same time, so both register a lane at once; the
 * arbiter then drains every lane. Neither registration may overwrite the other's lane.
 */
@JCStressTest
@Description("CarrierMux: producers registering at the same time each get a lane, and no carrier is lost")
@Outcome(id = "3, 2", expect = Expect.ACCEPTABLE, desc = "both carriers, on two lanes")
@Outcome(expect = Expect.FORBIDDEN, desc = "a lane or a carrier was lost, duplicated or half-written")
@State
public class CarrierMuxRegistrationStress
{
    private final CarrierMux<Pair> mux = new CarrierMux<>(2, Pair::new, 4);
    private final Lanes seen = new Lanes();

    /**
     * Producer one.
     */
    @Actor
    public void producer1()
    {
        Pair.publish(mux, 1);
    }

    /**
     * Producer two.
     */
    @Actor
    public void producer2()
    {
        Pair.publish(mux, 2);
    }

    /**
     * After both: drain everything.
     *
     * @param r r1: what was drained, r2: how many lanes.
     */
    @Arbiter
    public void drain(final II_Result r)
    {
        r.r1 = seen.drain(mux);
        r.r2 = mux.producers();
    }
}
