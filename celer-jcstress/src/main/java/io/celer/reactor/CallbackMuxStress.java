package io.celer.reactor;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * One producer thread has flushed a callback (mark 2) already through the mux's own calls; a second producer
 * takes its lane, registering it, and fills and flushes one (mark 1) while the reactor side drains; the
 * arbiter drains what is left. Results are bits: 1 for the second producer's callback, 2 for the first's.
 */
@JCStressTest
@Description("CallbackMux: callbacks of many producers run once each and whole")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "drained before the second producer's flush")
@Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "drained after it")
@Outcome(expect = Expect.FORBIDDEN, desc = "a callback was lost, ran twice or ran half-written")
@State
public class CallbackMuxStress
{
    private final Marks marks = new Marks();
    private final CallbackMux<Mark> mux = marks.mux();

    /**
     * The first producer's callback, flushed.
     */
    public CallbackMuxStress()
    {
        mux.next().fill(2);
        mux.flush();
    }

    /**
     * The second producer.
     */
    @Actor
    public void producer()
    {
        final CallbackLane<Mark> lane = mux.producerLane();
        lane.next().fill(1);
        lane.flush();
    }

    /**
     * Reactor: one drain.
     *
     * @param r r1: what ran.
     */
    @Actor
    public void reactor(final II_Result r)
    {
        r.r1 = marks.drain(mux);
    }

    /**
     * After both: what is left.
     *
     * @param r r2: what ran then.
     */
    @Arbiter
    public void rest(final II_Result r)
    {
        r.r2 = marks.drain(mux);
    }
}
