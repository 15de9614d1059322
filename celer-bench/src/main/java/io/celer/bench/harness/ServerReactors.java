package io.celer.bench.harness;

import picocli.CommandLine.Option;

/**
 * The {@code --server-reactors} option of the benchmarks whose servers can serve from several cores, as a
 * picocli mixin: Celer's reactors, Netty's and Vert.x's event loops, a CPU each when pinned.
 */
public final class ServerReactors
{
    @Option(names = "--server-reactors", paramLabel = "N", defaultValue = "1",
        description = "Reactors (Celer) or event loops (Netty, Vert.x) the server runs, each pinned to a CPU of its "
            + "own when pinning; the server process gets N CPUs, and with as many as the machine has, the client "
            + "shares them (default: ${DEFAULT-VALUE}).")
    private int count;

    /**
     * The count asked for, checked against this machine.
     *
     * @return from 1 to the CPUs this process may use.
     * @throws IllegalArgumentException if below 1 or above that.
     */
    public int count()
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("--server-reactors must be at least 1: " + count);
        }
        final int available = CpuPlan.available();
        if (count > available)
        {
            throw new IllegalArgumentException("--server-reactors " + count + " is more than the " + available
                + " CPUs this process may use: a reactor or event loop needs a CPU of its own");
        }
        return count;
    }
}
