package io.celer.reactor;

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
    private final CarrierQueue<T> queue;
    private final CallbackLane<T> producer;
    private final CallbackGate<T> gate;

    CallbackQueue(final Reactor reactor, final int capacity, final Supplier<? extends T> factory)
    {
        this.queue = new CarrierQueue<>(capacity, factory);
        this.producer = new CallbackLane<>(reactor, queue);
        this.gate = new CallbackGate<>(reactor);
    }

    /**
     * Producer: a free callback to fill.
     *
     * @return the callback, or null when the reactor has not caught up and all are in flight.
     */
    public T next()
    {
        return producer.next();
    }

    /**
     * Producer: a free callback, waiting for one with {@code whileFull} between tries.
     *
     * @param whileFull what to do between tries: {@code Thread::onSpinWait}, an idle strategy...
     * @return the callback.
     */
    public T next(final Runnable whileFull)
    {
        return producer.next(whileFull);
    }

    /**
     * Producer: hands every filled callback to the reactor.
     */
    public void flush()
    {
        producer.flush();
    }

    /**
     * Any thread: stops the reactor running these callbacks; it checks before each one, so a callback that
     * pauses its own queue is the last to run. The producer can still fill the queue until it is full.
     */
    public void pause()
    {
        gate.pause();
    }

    /**
     * Any thread: lets the reactor run this queue's callbacks again, in order, and wakes it for them.
     */
    public void resume()
    {
        gate.resume();
    }

    /**
     * Any thread: whether the queue is paused.
     *
     * @return true between {@link #pause()} and {@link #resume()}.
     */
    public boolean isPaused()
    {
        return gate.isPaused();
    }

    @Override
    public int drain()
    {
        return gate.isPaused() ? 0 : queue.drainWhile(gate, CallbackGate.DRAIN_LIMIT, gate);
    }

    @Override
    public boolean hasPublished()
    {
        // A paused queue's callbacks are no reason to stay awake.
        return !gate.isPaused() && queue.hasPublished();
    }
}
