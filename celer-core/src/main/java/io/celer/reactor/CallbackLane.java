package io.celer.reactor;

import io.celer.queue.CarrierQueue;

/**
 * The producer's side of one lane of pre-allocated callbacks: take a free callback with {@link #next()}, fill
 * it and {@link #flush()}; the reactor runs it.
 *
 * <p>Only one thread produces into a lane. A {@link CallbackMux} gives each producer thread its own with
 * {@link CallbackMux#producerLane()}, which the producer keeps so that no message pays the thread lookup.
 *
 * @param <T> the callback type.
 */
public final class CallbackLane<T extends ReactorCallback>
{
    private final Reactor reactor;
    private final CarrierQueue<T> lane;

    CallbackLane(final Reactor reactor, final CarrierQueue<T> lane)
    {
        this.reactor = reactor;
        this.lane = lane;
    }

    /**
     * Producer: a free callback to fill.
     *
     * @return the callback, or null when the reactor has not caught up and all of the lane's are in flight.
     */
    public T next()
    {
        return lane.claim();
    }

    /**
     * Producer: a free callback, waiting for one with {@code whileFull} between tries; what was filled before is
     * flushed first, so the reactor can free the lane.
     *
     * @param whileFull what to do between tries: {@code Thread::onSpinWait}, an idle strategy...
     * @return the callback.
     */
    public T next(final Runnable whileFull)
    {
        return next(reactor, lane, whileFull);
    }

    /**
     * Producer: hands every filled callback of the lane to the reactor and wakes it.
     */
    public void flush()
    {
        flush(reactor, lane);
    }

    static <T> T next(final Reactor reactor, final CarrierQueue<T> lane, final Runnable whileFull)
    {
        T callback;
        while ((callback = lane.claim()) == null)
        {
            flush(reactor, lane);
            whileFull.run();
        }
        return callback;
    }

    static void flush(final Reactor reactor, final CarrierQueue<?> lane)
    {
        lane.publish();
        reactor.wakeup();
    }
}
