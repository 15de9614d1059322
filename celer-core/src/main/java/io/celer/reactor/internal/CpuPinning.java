package io.celer.reactor.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
        if (cpu < 0)
        {
            return false;
        }
        try
        {
            // /proc/thread-self is a link to /proc/PID/task/TID: the only way to learn the kernel thread id
            // without native code.
            final Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            final String tid = self.getFileName().toString();
            final Process p = new ProcessBuilder("taskset", "-pc", Integer.toString(cpu), tid)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
