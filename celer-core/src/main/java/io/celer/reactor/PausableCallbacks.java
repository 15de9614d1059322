package io.celer.reactor;

import io.celer.queue.Drainable;

/**
 * What {@link CallbackQueue} and {@link CallbackMux} share: their reactor drains a carrier queue of callbacks
 * through a {@link CallbackGate}, which any thread can pause and resume.
 *
 * <p>Package-private: its public methods are the API of those two classes.
 *
 * @param <T> the callback type.
 */
abstract class PausableCallbacks<T extends ReactorCallback> implements CallbackSource
{
    private final Drainable<T> carriers;
    private final CallbackGate<T> gate;

    PausableCallbacks(final Reactor reactor, final Drainable<T> carriers)
    {
        this.carriers = carriers;
        this.gate = new CallbackGate<>(reactor);
    }

    /**
     * Any thread: stops the reactor running these callbacks; it checks before each one, so a callback that
     * pauses its own queue is the last to run. Producers can still fill their queue until it is full.
     */
    public final void pause()
    {
        gate.pause();
    }

    /**
     * Any thread: lets the reactor run these callbacks again, each producer's in order, and wakes it for them.
     */
    public final void resume()
    {
        gate.resume();
    }

    /**
     * Any thread: whether the callbacks are paused.
     *
     * @return true between {@link #pause()} and {@link #resume()}.
     */
    public final boolean isPaused()
    {
        return gate.isPaused();
    }

    @Override
    public final int drain()
    {
        return gate.isPaused() ? 0 : carriers.drainWhile(gate, CallbackGate.DRAIN_LIMIT, gate);
    }

    @Override
    public final boolean hasPublished()
    {
        // Paused callbacks are no reason to stay awake.
        return !gate.isPaused() && carriers.hasPublished();
    }
}
