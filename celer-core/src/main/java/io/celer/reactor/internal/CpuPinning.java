package io.celer.reactor.internal;

/**
 * Pins the calling thread to one CPU on Linux, with {@code taskset} and the thread's kernel id.
 */
public final class CpuPinning
{
    private CpuPinning()
    {
    }

    /**
     * Pins the current thread to a CPU.
     *
     * @param cpu the CPU number, from 0.
     * @return true when the kernel accepted the affinity, false where pinning is not available.
     */
    public static boolean pinCurrentThread(final int cpu)
    {
        // No upper bound from availableProcessors(): it counts the CPUs this process may use, not their
        // numbers, so under `taskset -c 3` it is 1 and CPU 3 is still valid. taskset rejects a bad CPU.
        return cpu >= 0 && CurrentThreadCommand.run("taskset", "-pc", Integer.toString(cpu));
    }
}
