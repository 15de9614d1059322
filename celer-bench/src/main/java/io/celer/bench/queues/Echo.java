package io.celer.bench.queues;

import java.util.function.BooleanSupplier;

/**
 * The far end of a round trip: a thread that sends back whatever arrives, spinning, until stopped.
 */
final class Echo implements Runnable
{
    private final BooleanSupplier echoOne;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    /**
     * Starts the thread.
     *
     * @param name    its name.
     * @param echoOne sends back one message if one arrived, and says whether it did.
     */
    Echo(final String name, final BooleanSupplier echoOne)
    {
        this.echoOne = echoOne;
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
        RoundTripCounters.farEnd = thread;
    }

    @Override
    public void run()
    {
        try
        {
            while (running)
            {
                echoOne.getAsBoolean();
            }
        }
        catch (final Throwable ex)
        {
            failure = ex;
        }
    }

    /**
     * Fails the waiting side if the echo died, so that it does not wait forever.
     */
    void check()
    {
        if (failure != null)
        {
            throw new IllegalStateException("the echo thread failed", failure);
        }
    }

    /**
     * Stops the thread and waits for it.
     *
     * @throws InterruptedException if interrupted while waiting.
     */
    void stop() throws InterruptedException
    {
        running = false;
        thread.join(10_000);
        if (RoundTripCounters.farEnd == thread)
        {
            RoundTripCounters.farEnd = null;
        }
    }
}
