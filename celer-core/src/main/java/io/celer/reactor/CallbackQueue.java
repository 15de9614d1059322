package io.celer.reactor;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.celer.queue.CarrierQueue;

/**
 * Garbage-free asynchronous callbacks from one producer thread into a reactor: the producer takes a
 * pre-allocated callback with {@link #next()}, fills it and {@link #flush()}es; the reactor runs it.
 *
 * <p>For one producer thread at a time; several threads use a {@link CallbackMux}. A queue can be
 * {@link #pause() paused} and {@link #resume() resumed}: the reactor leaves its callbacks waiting meanwhile.
 * Built by {@link Reactor#callbackQueue}.
 *
 * @param <T> the callback type.
 */
public final class CallbackQueue<T extends ReactorCallback> implements CallbackSource
{
    private static final int DRAIN_LIMIT = 1024;

    private final Reactor reactor;
    private final CarrierQueue<T> queue;
    private final Consumer<T> runner;
    private final BooleanSupplier running = this::isRunning;
    private volatile boolean paused;

    CallbackQueue(final Reactor reactor, final int capacity, final Supplier<? extends T> factory)
    {
        this.reactor = reactor;
        this.queue = new CarrierQueue<>(capacity, factory);
        this.runner = reactor::runCallback;
    }

    /**
     * Producer: a free callback to fill.
     *
     * @return the callback, or null when the reactor has not caught up and all are in flight.
     */
    public T next()
    {
        return queue.claim();
    }

    /**
     * Producer: a free callback, waiting for one with {@code whileFull} between tries.
     *
     * @param whileFull what to do between tries: {@code Thread::onSpinWait}, an idle strategy...
     * @return the callback.
     */
    public T next(final Runnable whileFull)
    {
        T callback;
        while ((callback = queue.claim()) == null)
        {
            queue.publish();
            reactor.wakeup();
            whileFull.run();
        }
        return callback;
    }

    /**
     * Producer: hands every filled callback to the reactor.
     */
    public void flush()
    {
        queue.publish();
        reactor.wakeup();
    }

    /**
     * Any thread: stops the reactor running these callbacks; it checks before each one, so a callback that
     * pauses its own queue is the last to run. Producers can still fill the queue until it is full.
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
        return paused ? 0 : queue.drainWhile(runner, DRAIN_LIMIT, running);
    }

    @Override
    public boolean hasPublished()
    {
        // A paused queue's callbacks are no reason to stay awake.
        return !paused && queue.hasPublished();
    }
}
