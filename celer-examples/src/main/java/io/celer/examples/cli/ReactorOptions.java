package io.celer.examples.cli;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import picocli.CommandLine.Option;

/**
 * The options of a demo's reactor thread: how it idles and where it runs. A picocli mixin.
 */
public final class ReactorOptions
{
    @Option(
        names = "--busy-spin",
        description = "Spin the reactor thread when idle, for the lowest latency (one core at 100%%); " +
            "by default it backs off.")
    private boolean busySpin;

    @Option(
        names = "--cpu",
        paramLabel = "N",
        defaultValue = "-1",
        description = "Pin the reactor thread to this CPU (default: left to the scheduler).")
    private int cpu;

    /**
     * Starts a daemon reactor as the options say, named {@code celer-demo-NAME}.
     *
     * @param name the demo's name.
     * @return the running reactor.
     * @throws UsageException if the CPU is not a CPU number.
     */
    public Reactor start(final String name)
    {
        if (cpu < -1)
        {
            throw new UsageException("--cpu must be a CPU number, 0 or more: " + cpu);
        }
        return new Reactor(new ReactorConfig()
            .name("celer-demo-" + name)
            .idleStrategy(busySpin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy())
            .cpu(cpu)
            .daemon(true)).start();
    }
}
