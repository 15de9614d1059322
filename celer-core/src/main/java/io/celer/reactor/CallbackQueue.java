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
public final class CallbackQueue<T extends ReactorCallback> extends PausableCallbacks<T>
{
    private final CallbackLane<T> producer;

    CallbackQueue(final Reactor reactor, final int capacity, final Supplier<? extends T> factory)
    {
        this(reactor, new CarrierQueue<>(capacity, factory));
    }

    private CallbackQueue(final Reactor reactor, final CarrierQueue<T> queue)
    {
        super(reactor, queue);
        this.producer = new CallbackLane<>(reactor, queue);
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
}
