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
 * A producer takes a callback with {@code next()}, fills it and {@code flush()}es twice; the reactor side
 * drains once meanwhile and the arbiter drains what is left. Results are bits: 1 and 2 for the two callbacks.
 */
@JCStressTest
@Description("CallbackQueue: every callback runs once, whole, in a drain after its flush")
@Outcome(id = "0, 3", expect = Expect.ACCEPTABLE, desc = "drained before both flushes")
@Outcome(id = "1, 2", expect = Expect.ACCEPTABLE, desc = "drained between the flushes")
@Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "drained after both flushes")
@Outcome(expect = Expect.FORBIDDEN, desc = "a callback was lost, ran twice, ran half-written or out of order")
@State
public class CallbackQueueStress
{
    private final Marks marks = new Marks();
    private final CallbackQueue<Mark> queue = marks.queue();

    /**
     * Producer: two callbacks, flushed one at a time.
     */
    @Actor
    public void producer()
    {
        Marks.flush(queue, 1);
        Marks.flush(queue, 2);
    }

    /**
     * Reactor: one drain.
     *
     * @param r r1: what ran.
     */
    @Actor
    public void reactor(final II_Result r)
    {
        r.r1 = marks.drain(queue);
    }

    /**
     * After both: what is left.
     *
     * @param r r2: what ran then.
     */
    @Arbiter
    public void rest(final II_Result r)
    {
        r.r2 = marks.drain(queue);
    }
}
