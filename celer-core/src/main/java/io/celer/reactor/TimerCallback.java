package io.celer.reactor;

/**
 * Called on the reactor thread when a timer scheduled with {@link Reactor#schedule} expires.
 */
@FunctionalInterface
public interface TimerCallback
{
    /**
     * The timer expired.
     *
     * @param timerId  the id {@link Reactor#schedule} returned.
     * @param nowMillis the reactor clock, monotonic milliseconds.
     */
    void onTimer(long timerId, long nowMillis);
}
