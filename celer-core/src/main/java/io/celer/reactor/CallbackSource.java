package io.celer.reactor;

/**
 * A queue of callbacks that the reactor drains every cycle.
 */
interface CallbackSource
{
    /**
     * Runs what is published; on the reactor thread.
     *
     * @return how many callbacks ran.
     */
    int drain();

    /**
     * Whether something waits to run.
     *
     * @return true when {@link #drain()} would run a callback.
     */
    boolean hasPublished();
}
