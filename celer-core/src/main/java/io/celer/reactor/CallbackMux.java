package io.celer.reactor;

import java.util.function.Supplier;

import io.celer.queue.CarrierMux;

/**
 * Garbage-free asynchronous callbacks from many producer threads into a reactor; each thread gets its own
 * lane on first use, so order is kept per producer.
 *
 * <p>A producer that keeps its {@link #producerLane()} produces without the thread lookup that
 * {@link #next()} and {@link #flush()} pay per call. The mux can be {@link #pause() paused} and
 * {@link #resume() resumed} as a whole: the reactor leaves the callbacks of every lane waiting meanwhile.
 * Built by {@link Reactor#callbackMux}.
 *
 * @param <T> the callback type.
 */
public final class CallbackMux<T extends ReactorCallback> extends PausableCallbacks<T>
{
    private final Reactor reactor;
    private final CarrierMux<T> mux;

    CallbackMux(final Reactor reactor, final int laneCapacity, final Supplier<? extends T> factory,
        final int maxProducers)
    {
        this(reactor, new CarrierMux<>(laneCapacity, factory, maxProducers));
    }

    private CallbackMux(final Reactor reactor, final CarrierMux<T> mux)
    {
        super(reactor, mux);
        this.reactor = reactor;
        this.mux = mux;
    }

    /**
     * Producer: the calling thread's lane, made on its first use, to keep and produce into; only that thread
     * may use it. Allocates the handle: take it once per producer, not per callback.
     *
     * @return the lane, drained by this mux.
     * @throws IllegalStateException when the mux already serves its most producer threads.
     */
    public CallbackLane<T> producerLane()
    {
        return new CallbackLane<>(reactor, mux.producerLane());
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
     * Producer: a free callback of the calling thread's lane, waiting for one with {@code whileFull} between
     * tries.
     *
     * @param whileFull what to do between tries.
     * @return the callback.
     */
    public T next(final Runnable whileFull)
    {
        return CallbackLane.next(reactor, mux.producerLane(), whileFull);
    }

    /**
     * Producer: hands the calling thread's filled callbacks to the reactor.
     */
    public void flush()
    {
        CallbackLane.flush(reactor, mux.producerLane());
    }
}
