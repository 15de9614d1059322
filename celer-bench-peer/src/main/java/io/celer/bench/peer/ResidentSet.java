package io.celer.bench.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The resident set of this process, for benchmarks that watch their own memory.
 */
public final class ResidentSet
{
    private static final Path STATUS = Path.of("/proc/self/status");

    private ResidentSet()
    {
    }

    /**
     * The resident set of this process, from {@code /proc/self/status}.
     *
     * @return bytes, or -1 where there is no such file.
     */
    public static long bytes()
    {
        try
        {
            for (final String line : Files.readAllLines(STATUS, StandardCharsets.US_ASCII))
            {
                if (line.startsWith("VmRSS:"))
                {
                    // "VmRSS:     123456 kB"
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // Not Linux, or the format changed: the samples say -1.
        }
        return -1;
    }
}
