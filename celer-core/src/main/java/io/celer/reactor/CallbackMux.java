package io.celer.reactor;

import java.util.function.Consumer;
import java.util.function.Supplier;

import io.celer.queue.CarrierMux;

/**
 * Garbage-free asynchronous callbacks from many producer threads into a reactor; each thread gets its own
 * lane on first use, so order is kept per producer.
 *
 * <p>Built by {@link Reactor#callbackMux}.
 *
 * @param <T> the callback type.
 */
public final class CallbackMux<T extends ReactorCallback> implements CallbackSource
{
    private static final int DRAIN_LIMIT = 1024;

    private final Reactor reactor;
    private final CarrierMux<T> mux;
    private final Consumer<T> runner;

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

    @Override
    public int drain()
    {
        return mux.drain(runner, DRAIN_LIMIT);
    }

    @Override
    public boolean hasPublished()
    {
        return mux.hasPublished();
    }
}
