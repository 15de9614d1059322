package io.celer.reactor;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.celer.reactor.internal.StallCulprit;

/**
 * A callback whose caller waits for it; allocated per call on the calling thread only.
 */
final class BlockingCall implements Runnable, StallCulprit
{
    private final Runnable callback;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Throwable failure;

    BlockingCall(final Runnable callback)
    {
        this.callback = callback;
    }

    @Override
    public void run()
    {
        callback.run();
        done.countDown();
    }

    @Override
    public Object culprit()
    {
        return callback;
    }

    void fail(final Throwable t)
    {
        failure = t;
        done.countDown();
    }

    void await(final Reactor reactor)
    {
        try
        {
            while (!done.await(100, TimeUnit.MILLISECONDS))
            {
                if (reactor.hasStopped())
                {
                    throw new IllegalStateException("reactor " + reactor.name() + " stopped first");
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the reactor", ex);
        }
        final Throwable t = failure;
        if (t instanceof RuntimeException)
        {
            throw (RuntimeException)t;
        }
        if (t instanceof Error)
        {
            throw (Error)t;
        }
    }
}
