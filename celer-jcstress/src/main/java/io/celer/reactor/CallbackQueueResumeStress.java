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
 * A paused queue holds a flushed callback; another thread resumes it while the reactor side drains, and the
 * arbiter drains what is left. A drain that runs while the queue is paused takes nothing; the callback runs
 * exactly once in all.
 */
@JCStressTest
@Description("CallbackQueue: resume() from another thread; a paused queue runs nothing, nothing is lost")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "the drain saw the queue paused; it ran afterwards")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the drain saw the queue resumed and ran it")
@Outcome(expect = Expect.FORBIDDEN, desc = "the callback was lost, ran twice or ran half-written")
@State
public class CallbackQueueResumeStress
{
    private final Marks marks = new Marks();
    private final CallbackQueue<Mark> queue = marks.queue();

    /**
     * A paused queue with one flushed callback.
     */
    public CallbackQueueResumeStress()
    {
        queue.pause();
        Marks.flush(queue, 1);
    }

    /**
     * Another thread resumes the queue.
     */
    @Actor
    public void resumer()
    {
        queue.resume();
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
