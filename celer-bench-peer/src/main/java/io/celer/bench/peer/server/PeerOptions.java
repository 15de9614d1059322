package io.celer.bench.peer.server;

import picocli.CommandLine.Option;

/**
 * The options every HTTP and WebSocket peer takes.
 */
public final class PeerOptions
{
    @Option(names = "--port", defaultValue = "0", description = "Port to listen on, on 127.0.0.1 (0: ephemeral).")
    int port;

    @Option(names = "--cpu", defaultValue = "-1",
        description = "CPU the I/O thread pins itself to (-1: none); the harness pins the process with taskset.")
    int cpu;

    @Option(names = "--loops", defaultValue = "1",
        description = "Event loops (Celer: reactors) that serve, each with its own connections.")
    int loops;

    @Option(names = "--cpus", split = ",", paramLabel = "LIST",
        description = "A CPU per loop, comma-separated, for each loop to pin itself to (default: --cpu for one "
            + "loop, none for several).")
    int[] cpus;

    /**
     * The port asked for.
     *
     * @return the port, 0 for an ephemeral one.
     */
    public int port()
    {
        return port;
    }

    /**
     * The I/O thread's CPU.
     *
     * @return the CPU, or -1 to leave it to the scheduler.
     */
    public int cpu()
    {
        return cpu;
    }

    /**
     * The event loops asked for.
     *
     * @return at least 1.
     * @throws IllegalArgumentException if below 1, or if {@code --cpus} does not name one CPU per loop.
     */
    public int loops()
    {
        if (loops < 1 || cpus != null && cpus.length != loops)
        {
            throw new IllegalArgumentException("--loops must be positive and --cpus name one CPU per loop: "
                + loops + " loops");
        }
        return loops;
    }

    /**
     * The CPU one loop pins itself to.
     *
     * @param loop the loop's index, from 0.
     * @return the CPU, or -1 to leave it to the scheduler.
     */
    public int cpuOf(final int loop)
    {
        return cpus != null ? cpus[loop] : loops == 1 ? cpu : -1;
    }
}
