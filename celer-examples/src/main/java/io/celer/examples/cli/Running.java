package io.celer.examples.cli;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.celer.reactor.ReactorGroup;

/**
 * A demo that runs on its reactors: where it listens or connects, and how to stop it.
 */
public final class Running
{
    private final String name;
    private final ReactorGroup reactors;
    private final PrintStream err;
    // Completed with the exit code by the client's end or by stop(), whichever comes first.
    private final CompletableFuture<Integer> exitCode = new CompletableFuture<>();
    private volatile InetSocketAddress address;
    private volatile Runnable cleanup;

    Running(final String name, final ReactorGroup reactors, final PrintStream err)
    {
        this.name = name;
        this.reactors = reactors;
        this.err = err;
    }

    /**
     * Where a server listens, or the server a client connects to.
     *
     * @return the address.
     */
    public InetSocketAddress address()
    {
        return address;
    }

    void address(final InetSocketAddress address)
    {
        this.address = address;
    }

    /**
     * The port a server listens on (the one picked, for port 0), or a client connects to.
     *
     * @return the port.
     */
    public int port()
    {
        return address.getPort();
    }

    /**
     * Where the demo says what goes wrong or what changed, beside its output.
     *
     * @return the error stream.
     */
    public PrintStream err()
    {
        return err;
    }

    /**
     * Whether it has finished or been stopped.
     *
     * @return true once over.
     */
    public boolean isFinished()
    {
        return exitCode.isDone();
    }

    /**
     * Runs a task when the demo stops, after its reactor: for worker threads and the like, which the reactor
     * does not own.
     *
     * @param task what to run; replaces any earlier one.
     */
    public void onStop(final Runnable task)
    {
        cleanup = task;
    }

    /**
     * Ends a client's run when its connection is done: exit code 0 if it succeeded, else 1 and a line on the
     * error stream saying why.
     *
     * @param outcome   the client's outcome.
     * @param succeeded read once done: whether the client did its job.
     * @param whyNot    read once done if it did not: what went wrong, before the connection's own failure.
     */
    public void finishWhen(final ClientOutcome outcome, final BooleanSupplier succeeded, final Supplier<String> whyNot)
    {
        outcome.onDone(() ->
        {
            final boolean success = succeeded.getAsBoolean();
            if (!success)
            {
                err.println(name + ": " + whyNot.get() + Launcher.describe(outcome.failure()));
            }
            exitCode.complete(success ? 0 : 1);
        });
    }

    /**
     * Stops the reactors, closing every connection, and waits for them; from any thread, more than once.
     */
    public void stop()
    {
        reactors.stop();
        final Runnable toClean = cleanup;
        if (toClean != null)
        {
            toClean.run();
        }
        exitCode.complete(0);
    }

    /**
     * Waits until a client finishes or {@link #stop()} is called, then stops the reactors.
     *
     * @return the exit code: 0 unless a client failed.
     * @throws InterruptedException if interrupted while waiting.
     */
    public int await() throws InterruptedException
    {
        final int code;
        try
        {
            code = exitCode.get();
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("never completed exceptionally", ex);
        }
        stop();
        return code;
    }
}
