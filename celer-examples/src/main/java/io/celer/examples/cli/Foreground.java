package io.celer.examples.cli;

import java.io.PrintStream;
import java.io.UncheckedIOException;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import picocli.CommandLine.Option;

/**
 * Runs a demo on its own reactor in the foreground: starts it, tells the {@link DemoContext}, and waits until
 * a client finishes or someone (Ctrl-C) stops it. A picocli mixin with the options of that reactor: how it
 * idles and where it runs.
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

    @Option(names = "--busy-spin",
        description = "Spin the reactor thread when idle, for the lowest latency (one core at 100%%); " +
            "by default it backs off.")
    private boolean busySpin;

    @Option(names = "--cpu", paramLabel = "N", defaultValue = "-1",
        description = "Pin the reactor thread to this CPU (default: left to the scheduler).")
    private int cpu;

    private final DemoContext context;

    /**
     * Runs in a context; {@link Launcher} hands it over.
     *
     * @param context where the demo prints and whom it tells.
     */
    public Foreground(final DemoContext context)
    {
        this.context = context;
    }

    /**
     * Where the demo prints.
     *
     * @return the output stream.
     */
    public PrintStream out()
    {
        return context.out();
    }

    /**
     * Starts a demo on a daemon reactor named {@code celer-demo-NAME} and waits for its end.
     *
     * @param name  the demo's name, for its reactor thread and messages.
     * @param start opens the demo.
     * @return the exit code: 0 unless it failed, 1 if it could not start (a port in use, say) or failed.
     * @throws InterruptedException if interrupted while waiting.
     * @throws UsageException       if {@code --cpu} is not a CPU number.
     */
    public int run(final String name, final Start start) throws InterruptedException
    {
        if (cpu < -1)
        {
            throw new UsageException("--cpu must be a CPU number, 0 or more: " + cpu);
        }
        final Reactor reactor = new Reactor(new ReactorConfig()
            .name("celer-demo-" + name)
            .idleStrategy(busySpin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy())
            .cpu(cpu)
            .daemon(true)).start();
        final Running running = new Running(name, reactor, context.err());
        try
        {
            start.start(reactor, running);
        }
        catch (final UncheckedIOException | IllegalArgumentException | IllegalStateException ex)
        {
            // An unresolvable bind address, say, a port in use, or a key store that does not open.
            context.err().println("demo " + name + ": " + Launcher.message(ex) + Launcher.describe(ex.getCause()));
            reactor.stop();
            return 1;
        }
        context.onStart().accept(running);
        return running.await();
    }
}
