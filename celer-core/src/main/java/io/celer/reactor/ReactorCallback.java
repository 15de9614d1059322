package io.celer.reactor;

/**
 * A pre-allocated carrier of work for the reactor thread, taken from a {@link CallbackQueue} or
 * {@link CallbackMux}, filled by another thread and run by the reactor.
 */
@FunctionalInterface
public interface ReactorCallback
{
    /**
     * Runs on the reactor thread.
     *
     * @param nowMillis the reactor clock.
     */
    void onCallback(long nowMillis);
}
