package io.celer.reactor.internal;

import io.celer.reactor.Reactor;

/**
 * A channel owner that a {@link Reactor} reads every cycle instead of waiting for the selector to report it
 * readable: busy polling, for the few channels whose latency matters most.
 *
 * <p>Implemented by transports (TCP, UDP) when their config asks for busy polling; applications use handlers.
 */
public interface Poller
{
    /**
     * Tries one non-blocking read and delivers what came; runs on the reactor thread, once per cycle.
     *
     * @return the work done: 0 when nothing was there to read.
     */
    int poll();
}
