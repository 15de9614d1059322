package io.celer.reactor;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.celer.queue.CarrierMux;

/**
 * Garbage-free asynchronous callbacks from many producer threads into a reactor; each thread gets its own
 * lane on first use, so order is kept per producer.
 *
 * <p>The mux can be {@link #pause() paused} and {@link #resume() resumed} as a whole: the reactor leaves its
 * callbacks waiting meanwhile. Built by {@link Reactor#callbackMux}.
 *
 * @param <T> the callback type.
 */
public final class CallbackMux<T extends ReactorCallback> implements CallbackSource
{
    private static final int DRAIN_LIMIT = 1024;

    private final Reactor reactor;
    private final CarrierMux<T> mux;
    private final Consumer<T> runner;
    private final BooleanSupplier running = this::isRunning;
    private volatile boolean paused;

    CallbackMux(final Reactor reactor, final int laneCapacity, final Supplier<? extends T> factory,
        final int maxProducers)
    {
        this.reactor = reactor;
        this.mux = new CarrierMux<>(laneCapacity, factory, maxProducers);
        this.runner = reactor::runCallback;
    }

    /**
     * Producer: a free callback of the calling thread's lane.
     *
     * @return the callback, or null when that lane is full.
     */
    public T next()
    {
        return mux.claim();
    }

    /**
     * Producer: a free callback, waiting for one with {@code whileFull} between tries.
     *
     * @param whileFull what to do between tries.
     * @return the callback.
     */
    public T next(final Runnable whileFull)
    {
        T callback;
        while ((callback = mux.claim()) == null)
        {
            mux.publish();
            reactor.wakeup();
            whileFull.run();
        }
        return callback;
    }

    /**
     * Producer: hands the calling thread's filled callbacks to the reactor.
     */
    public void flush()
    {
        mux.publish();
        reactor.wakeup();
    }

    /**
     * Any thread: stops the reactor running these callbacks; it checks before each one, so a callback that
     * pauses its own queue is the last to run. Producers can still fill their lanes until they are full.
     */
    public void pause()
    {
        paused = true;
    }

    /**
     * Any thread: lets the reactor run this queue's callbacks again, in order, and wakes it for them.
     */
    public void resume()
    {
        paused = false;
        reactor.wakeup();
    }

    /**
     * Any thread: whether the queue is paused.
     *
     * @return true between {@link #pause()} and {@link #resume()}.
     */
    public boolean isPaused()
    {
        return paused;
    }

    private boolean isRunning()
    {
        return !paused;
    }

    @Override
    public int drain()
    {
        return paused ? 0 : mux.drainWhile(runner, DRAIN_LIMIT, running);
    }

    @Override
    public boolean hasPublished()
    {
        // A paused queue's callbacks are no reason to stay awake.
        return !paused && mux.hasPublished();
    }
}
