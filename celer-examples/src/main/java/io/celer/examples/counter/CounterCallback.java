package io.celer.examples.counter;

import io.celer.reactor.ReactorCallback;

/**
 * A change of a {@link CounterClient}'s counter, made by another thread and run by the reactor.
 *
 * <p>A {@link Runnable} for {@code Reactor.call} and {@code callAsync}, and a {@link ReactorCallback} for
 * the garbage-free callback queues.
 */
public final class CounterCallback implements Runnable, ReactorCallback
{
    private final CounterClient client;
    private boolean down;

    /**
     * A callback for one client.
     *
     * @param client the client whose counter it changes.
     */
    public CounterCallback(final CounterClient client)
    {
        this.client = client;
    }

    /**
     * Chooses the change before handing the callback over; its publication makes it visible to the reactor.
     *
     * @param down true to take one away, false to add one.
     * @return this.
     */
    public CounterCallback down(final boolean down)
    {
        this.down = down;
        return this;
    }

    /**
     * Changes the counter; on the reactor thread.
     */
    @Override
    public void run()
    {
        if (down)
        {
            client.decrement();
        }
        else
        {
            client.increment();
        }
    }

    /**
     * Changes the counter; on the reactor thread.
     *
     * @param nowMillis the reactor clock.
     */
    @Override
    public void onCallback(final long nowMillis)
    {
        run();
    }
}
