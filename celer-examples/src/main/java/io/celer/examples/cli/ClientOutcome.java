package io.celer.examples.cli;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * How an example client's connection ended: done or not, why it closed, what went wrong; readable from any
 * thread, with a callback for the launcher.
 *
 * <p>A client hands its connection {@link #recording(Handler)} of its handler, so the outcome hears of the
 * connection's end and errors without each client forwarding them.
 */
public final class ClientOutcome
{
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile CloseReason closeReason;
    private volatile Throwable failure;
    private volatile Runnable onDone;

    /**
     * The handler to give the connection: passes every event on to the client's handler, and records errors
     * and the close here first.
     *
     * @param handler the client's handler.
     * @return a handler that records into this outcome.
     */
    public Handler recording(final Handler handler)
    {
        return new Recording(handler, this);
    }

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

    /**
     * Forwards each event; on the reactor thread, allocation-free, one more call per event.
     */
    private static final class Recording implements Handler
    {
        private final Handler handler;
        private final ClientOutcome outcome;

        Recording(final Handler handler, final ClientOutcome outcome)
        {
            this.handler = handler;
            this.outcome = outcome;
        }

        @Override
        public void opened(final Connection connection)
        {
            handler.opened(connection);
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            handler.closed(connection, reason);
            outcome.closed(reason);
        }

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            handler.message(connection, message);
        }

        @Override
        public void batchProcessed(final Connection connection)
        {
            handler.batchProcessed(connection);
        }

        @Override
        public void writable(final Connection connection, final int freeBytes)
        {
            handler.writable(connection, freeBytes);
        }

        @Override
        public void eventTimeout(final Connection connection, final long nowMillis)
        {
            handler.eventTimeout(connection, nowMillis);
        }

        @Override
        public void readTimeout(final Connection connection, final long nowMillis)
        {
            handler.readTimeout(connection, nowMillis);
        }

        @Override
        public void error(final Connection connection, final Throwable error)
        {
            outcome.failed(error);
            handler.error(connection, error);
        }
    }
}
