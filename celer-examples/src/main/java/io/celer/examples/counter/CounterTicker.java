package io.celer.examples.counter;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.celer.reactor.CallbackQueue;
import io.celer.reactor.Reactor;

/**
 * A thread other than the reactor's that changes a {@link CounterClient}'s counter at a fixed period, the
 * way a user interface would: two additions, then one subtraction, and again. Each change travels through a
 * garbage-free callback queue.
 */
public final class CounterTicker implements Runnable
{
    private final Reactor reactor;
    private final long periodNanos;
    private final CallbackQueue<CounterCallback> queue;
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * A ticker; build it before the reactor starts or from any thread while it runs.
     *
     * @param reactor      the client's reactor.
     * @param client       the client.
     * @param periodMillis time between changes.
     */
    public CounterTicker(final Reactor reactor, final CounterClient client, final long periodMillis)
    {
        if (periodMillis < 1)
        {
            throw new IllegalArgumentException("period must be positive: " + periodMillis);
        }
        this.reactor = reactor;
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMillis);
        if (reactor.thread() == null || reactor.isReactorThread())
        {
            queue = reactor.callbackQueue(16, () -> new CounterCallback(client));
        }
        else
        {
            // A running reactor builds its callback queues on its own thread.
            final Object[] built = new Object[1];
            reactor.call(() -> built[0] = reactor.callbackQueue(16, () -> new CounterCallback(client)));
            @SuppressWarnings("unchecked")
            final CallbackQueue<CounterCallback> made = (CallbackQueue<CounterCallback>)built[0];
            queue = made;
        }
        thread = new Thread(this, "counter-ticker");
        thread.setDaemon(true);
    }

    /**
     * Starts the ticking thread.
     *
     * @return this.
     */
    public CounterTicker start()
    {
        thread.start();
        return this;
    }

    /**
     * Stops the ticking thread.
     */
    public void stop()
    {
        running = false;
        LockSupport.unpark(thread);
    }

    @Override
    public void run()
    {
        long next = System.nanoTime() + periodNanos;
        for (long i = 0; running; i++)
        {
            long left;
            while ((left = next - System.nanoTime()) > 0 && running)
            {
                LockSupport.parkNanos(left);
            }
            if (!running || !reactor.isRunning())
            {
                return;
            }
            next += periodNanos;
            final CounterCallback callback = queue.next();
            if (callback == null)
            {
                continue; // the reactor is far behind: skip a tick rather than pile them up
            }
            callback.down(i % 3 == 2);
            queue.flush();
        }
    }
}
