package io.celer.examples;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.celer.tcp.CloseReason;

/**
 * How an example client's connection ended: done or not, why it closed, what went wrong; readable from any
 * thread, with a callback for the launcher.
 */
public final class ClientOutcome
{
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile CloseReason closeReason;
    private volatile Throwable failure;
    private volatile Runnable onDone;

    /**
     * Keeps the latest error, for {@link #failure()}; called on the reactor thread.
     *
     * @param error what went wrong.
     */
    public void failed(final Throwable error)
    {
        failure = error;
    }

    /**
     * Marks the client done and runs the {@link #onDone(Runnable)} callback; called on the reactor thread.
     *
     * @param reason why the connection closed.
     */
    public void closed(final CloseReason reason)
    {
        closeReason = reason;
        done.countDown();
        final Runnable callback = onDone;
        if (callback != null)
        {
            callback.run();
        }
    }

    /**
     * Runs a callback on the reactor thread when done; set it before the client opens.
     *
     * @param callback what to run.
     */
    public void onDone(final Runnable callback)
    {
        onDone = callback;
    }

    /**
     * Whether the connection closed, or never opened.
     *
     * @return true once done.
     */
    public boolean isDone()
    {
        return done.getCount() == 0;
    }

    /**
     * Waits until the client is done.
     *
     * @param timeout the bound.
     * @return true if done in time.
     * @throws InterruptedException if interrupted while waiting.
     */
    public boolean awaitDone(final Duration timeout) throws InterruptedException
    {
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Why the connection closed.
     *
     * @return the reason, or null while not done.
     */
    public CloseReason closeReason()
    {
        return closeReason;
    }

    /**
     * What went wrong on the connection: a refused connect, an untrusted certificate.
     *
     * @return the last error, or null.
     */
    public Throwable failure()
    {
        return failure;
    }
}
