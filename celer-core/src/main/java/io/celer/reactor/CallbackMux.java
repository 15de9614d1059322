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
public final class CallbackMux<T extends ReactorCallback> implements CallbackSource
{
    private final Reactor reactor;
    private final CarrierMux<T> mux;
    private final CallbackGate<T> gate;

    CallbackMux(final Reactor reactor, final int laneCapacity, final Supplier<? extends T> factory,
        final int maxProducers)
    {
        this.reactor = reactor;
        this.mux = new CarrierMux<>(laneCapacity, factory, maxProducers);
        this.gate = new CallbackGate<>(reactor);
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

    /**
     * Any thread: stops the reactor running the callbacks of every lane; it checks before each one, so a
     * callback that pauses its own mux is the last to run. Producers can still fill their lanes until full.
     */
    public void pause()
    {
        gate.pause();
    }

    /**
     * Any thread: lets the reactor run the lanes' callbacks again, each lane in order, and wakes it for them.
     */
    public void resume()
    {
        gate.resume();
    }

    /**
     * Any thread: whether the mux is paused.
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
        return gate.isPaused() ? 0 : mux.drainWhile(gate, CallbackGate.DRAIN_LIMIT, gate);
    }

    @Override
    public boolean hasPublished()
    {
        // A paused mux's callbacks are no reason to stay awake.
        return !gate.isPaused() && mux.hasPublished();
    }
}
