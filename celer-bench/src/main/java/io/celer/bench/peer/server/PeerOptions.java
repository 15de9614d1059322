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
}
