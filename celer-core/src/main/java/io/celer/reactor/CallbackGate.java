package io.celer.reactor;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The reactor's side of a pausable callback queue, shared by {@link CallbackQueue} and {@link CallbackMux}:
 * the pause flag, and the action and condition their carrier queues drain with.
 *
 * <p>It is its own action and condition, so draining allocates nothing and captures nothing.
 *
 * @param <T> the callback type.
 */
final class CallbackGate<T extends ReactorCallback> implements Consumer<T>, BooleanSupplier
{
    /** The most callbacks a lane runs per reactor cycle, so that a busy producer does not starve the I/O. */
    static final int DRAIN_LIMIT = 1024;

    private final Reactor reactor;
    private volatile boolean paused;

    CallbackGate(final Reactor reactor)
    {
        this.reactor = reactor;
    }

    void pause()
    {
        paused = true;
    }

    void resume()
    {
        paused = false;
        reactor.wakeup();
    }

    boolean isPaused()
    {
        return paused;
    }

    /**
     * Asked before each callback, so a callback that pauses its own queue is the last to run.
     *
     * @return true while not paused.
     */
    @Override
    public boolean getAsBoolean()
    {
        return !paused;
    }

    /**
     * Runs one callback on the reactor thread.
     *
     * @param callback the callback.
     */
    @Override
    public void accept(final T callback)
    {
        reactor.runCallback(callback);
    }
}
