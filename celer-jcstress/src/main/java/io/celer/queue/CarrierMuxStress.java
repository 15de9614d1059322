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
 * One producer already has a lane with a published carrier (mark 2); a second producer registers its lane (a
 * copy-on-write array behind a volatile field), fills and publishes a carrier (mark 1) while the consumer
 * drains every lane; the arbiter drains what is left. Results are bits (see {@link Lanes}).
 */
@JCStressTest
@Description("CarrierMux: a lane registered during a drain loses nothing; carriers arrive once and whole")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "the drain ran before the new lane's publication")
@Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "the drain saw the new lane and its carrier")
@Outcome(expect = Expect.FORBIDDEN, desc = "a carrier was lost, duplicated or seen half-written")
@State
public class CarrierMuxStress
{
    private final CarrierMux<Pair> mux = new CarrierMux<>(2, Pair::new, 4);
    private final Lanes seen = new Lanes();

    /**
     * The first producer's lane, with one carrier published.
     */
    public CarrierMuxStress()
    {
        Pair.publish(mux, 2);
    }

    /**
     * The second producer.
     */
    @Actor
    public void producer()
    {
        Pair.publish(mux, 1);
    }

    /**
     * Consumer: one drain of every lane.
     *
     * @param r r1: what it saw.
     */
    @Actor
    public void consumer(final II_Result r)
    {
        r.r1 = seen.drain(mux);
    }

    /**
     * After both: what is left.
     *
     * @param r r2: what was left.
     */
    @Arbiter
    public void rest(final II_Result r)
    {
        r.r2 = seen.drain(mux);
    }
}
