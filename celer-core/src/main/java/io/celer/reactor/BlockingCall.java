package io.celer.reactor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A callback whose caller waits for it: one per calling thread, used again for that thread's next call, so that
 * {@link Reactor#call} allocates nothing after a thread's first call (a latch would allocate its wait nodes each
 * time). A caller that stops waiting before the callback ran (the reactor stopped, or it was interrupted) leaves
 * its instance to the reactor's queue and takes a new one next time.
 */
final class BlockingCall implements Runnable
{
    private static final ThreadLocal<BlockingCall> OF_THREAD = new ThreadLocal<>();
    private static final long LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private Runnable callback;
    private Thread caller;
    private volatile boolean done;
    private volatile Throwable failure;

    private BlockingCall()
    {
    }

    /**
     * The calling thread's call, set up for a callback; published to the reactor by its queue.
     *
     * @param callback what the reactor runs.
     * @return the call to queue, then to {@link #await}.
     */
    static BlockingCall of(final Runnable callback)
    {
        BlockingCall call = OF_THREAD.get();
        if (call == null)
        {
            call = new BlockingCall();
            OF_THREAD.set(call);
        }
        call.callback = callback;
        call.caller = Thread.currentThread();
        call.failure = null;
        call.done = false;
        return call;
    }

    @Override
    public void run()
    {
        callback.run();
        finish();
    }

    /**
     * What it runs, for the reactor to name in a stall report: read as it starts, since the caller sets up its
     * next call on this instance once this one is done, before the report.
     *
     * @return the callback.
     */
    Runnable callback()
    {
        return callback;
    }

    void fail(final Throwable t)
    {
        failure = t;
        finish();
    }

    private void finish()
    {
        final Thread waiting = caller; // read before done: once done, the caller may set up its next call
        done = true;
        LockSupport.unpark(waiting);
    }

    void await(final Reactor reactor)
    {
        while (!done)
        {
            LockSupport.parkNanos(this, LOOK_NANOS);
            if (done)
            {
                break;
            }
            if (Thread.interrupted())
            {
                OF_THREAD.remove();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the reactor");
            }
            if (reactor.hasStopped())
            {
                OF_THREAD.remove();
                throw new IllegalStateException("reactor " + reactor.name() + " stopped first");
            }
        }
        final Throwable t = failure;
        callback = null; // the caller's lambda is not kept until its next call
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
