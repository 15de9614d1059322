package io.celer.examples.cli;

import java.io.UncheckedIOException;

import io.celer.reactor.Reactor;

/**
 * Runs a demo on its own reactor in the foreground: starts it, tells the {@link DemoContext}, and waits until
 * a client finishes or someone (Ctrl-C) stops it.
 */
public final class Foreground
{
    /**
     * What a demo does on its freshly started reactor.
     */
    @FunctionalInterface
    public interface Start
    {
        /**
         * Opens the demo's servers or clients.
         *
         * @param reactor the demo's reactor, running.
         * @param running the run, to set its address, add a stop task or end it.
         */
        void start(Reactor reactor, Running running);
    }

    private Foreground()
    {
    }

    /**
     * Starts a demo and waits for its end.
     *
     * @param context where it prints and whom it tells.
     * @param name    the demo's name, for its reactor thread and messages.
     * @param reactor the options of its reactor.
     * @param start   opens the demo.
     * @return the exit code: 0 unless it failed, 1 if it could not start (a port in use, say) or failed.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static int run(final DemoContext context, final String name, final ReactorOptions reactor,
        final Start start) throws InterruptedException
    {
        final Reactor started = reactor.start(name);
        final Running running = new Running(name, started, context.err());
        try
        {
            start.start(started, running);
        }
        catch (final UncheckedIOException | IllegalArgumentException | IllegalStateException ex)
        {
            // An unresolvable bind address, say, a port in use, or a key store that does not open.
            context.err().println("demo " + name + ": " + Launcher.message(ex) + Launcher.describe(ex.getCause()));
            started.stop();
            return 1;
        }
        context.onStart().accept(running);
        return running.await();
    }
}
