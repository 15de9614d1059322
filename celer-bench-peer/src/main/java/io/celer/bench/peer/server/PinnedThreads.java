package io.celer.bench.peer.server;

import io.celer.reactor.internal.CpuPinning;

/**
 * Pins a peer's I/O thread to the CPU its options name, as Celer's reactor pins itself.
 */
public final class PinnedThreads
{
    private PinnedThreads()
    {
    }

    /**
     * Pins the calling thread, telling stderr when it cannot.
     *
     * @param cpu the CPU, or -1 to leave the thread alone.
     */
    public static void pin(final int cpu)
    {
        if (cpu >= 0 && !CpuPinning.pinCurrentThread(cpu))
        {
            System.err.println("could not pin " + Thread.currentThread().getName() + " to CPU " + cpu);
        }
    }
}
