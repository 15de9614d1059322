package io.celer.examples.cli;

import java.io.PrintStream;
import java.io.UncheckedIOException;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.ReactorGroup;
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

    /**
     * What a demo does on its freshly started group of reactors.
     */
    @FunctionalInterface
    public interface GroupStart
    {
        /**
         * Opens the demo's servers.
         *
         * @param group   the demo's reactors, running.
         * @param running the run, to set its address, add a stop task or end it.
         */
        void start(ReactorGroup group, Running running);
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
        return run(name, ReactorOptions.ONE, (group, running) -> start.start(group.reactor(0), running));
    }

    /**
     * Starts a demo on daemon reactors named {@code celer-demo-NAME}, or {@code celer-demo-NAME-0},
     * {@code -1}, ... when there are several, and waits for its end.
     *
     * @param name     the demo's name, for its reactor threads and messages.
     * @param reactors how many reactors and where they run.
     * @param start    opens the demo.
     * @return the exit code: 0 unless it failed, 1 if it could not start (a port in use, say) or failed.
     * @throws InterruptedException if interrupted while waiting.
     * @throws UsageException       if the CPU options are wrong.
     */
    public int run(final String name, final ReactorOptions reactors, final GroupStart start)
        throws InterruptedException
    {
        if (cpu < -1)
        {
            throw new UsageException("--cpu must be a CPU number, 0 or more: " + cpu);
        }
        final int[] cpus = reactors.cpus(name, cpu);
        final int size = reactors.count();
        final ReactorGroup group = new ReactorGroup(size, i -> new ReactorConfig()
            .name(size == 1 ? "celer-demo-" + name : "celer-demo-" + name + "-" + i)
            .idleStrategy(busySpin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy())
            .cpu(cpus[i])
            .daemon(true)).start();
        final Running running = new Running(name, group, context.err());
        try
        {
            start.start(group, running);
        }
        catch (final UncheckedIOException | IllegalArgumentException | IllegalStateException ex)
        {
            // An unresolvable bind address, say, a port in use, or a key store that does not open.
            context.err().println("demo " + name + ": " + Launcher.message(ex) + Launcher.describe(ex.getCause()));
            group.stop();
            return 1;
        }
        context.onStart().accept(running);
        return running.await();
    }
}
