package io.celer.reactor;

import io.celer.queue.Lanes;

/**
 * Callback queues and muxes whose callbacks record what they carry when they run, in the bits of
 * {@link Lanes}: bit {@code mark - 1} for each whole callback of that mark, 8 when a mark ran twice, 16 when a
 * callback ran half-written. Touched only by the thread that drains.
 */
final class Marks
{
    /** A reactor that is never started: callback queues need one to run callbacks and to wake it. */
    static final Reactor REACTOR = new Reactor(new ReactorConfig().name("jcstress").daemon(true));

    private final Lanes seen = new Lanes();

    /**
     * A callback queue on {@link #REACTOR} whose callbacks record here.
     *
     * @return a queue of two callbacks.
     */
    CallbackQueue<Mark> queue()
    {
        return new CallbackQueue<>(REACTOR, 2, () -> new Mark(this));
    }

    /**
     * A callback mux on {@link #REACTOR} whose callbacks record here.
     *
     * @return a mux of up to four producers with two callbacks each.
     */
    CallbackMux<Mark> mux()
    {
        return new CallbackMux<>(REACTOR, 2, () -> new Mark(this), 4);
    }

    /**
     * Takes a callback, fills it with one mark and flushes it: a producer's whole step.
     *
     * @param queue where.
     * @param mark  what.
     */
    static void flush(final CallbackQueue<Mark> queue, final int mark)
    {
        queue.next().fill(mark);
        queue.flush();
    }

    /**
     * Records one callback.
     *
     * @param first  its first field.
     * @param second its second field.
     */
    void add(final int first, final int second)
    {
        seen.add(first, second);
    }

    /**
     * Drains a queue once, as a reactor cycle does, and takes what ran.
     *
     * @param source the queue or mux.
     * @return the bits of what ran in that drain.
     */
    int drain(final CallbackSource source)
    {
        source.drain();
        return seen.take();
    }
}
