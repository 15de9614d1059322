package io.celer.bench.conns;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.celer.bench.harness.BenchException;

/**
 * What the kernel holds for TCP at one moment, machine-wide: the sockets and the pages of their queued data
 * ({@code /proc/net/sockstat}'s {@code TCP: inuse N ... mem P}, with {@code /proc/net/sockstat6}'s
 * {@code TCP6: inuse N}: the JDK's sockets are IPv6 ones unless told otherwise, and both share the one page count),
 * and the slab caches the socket structures themselves live in ({@code Slab} of {@code /proc/meminfo}), which the
 * page count leaves out.
 *
 * @param tcpSockets TCP sockets in use, IPv4 and IPv6.
 * @param tcpPages   pages of TCP buffers.
 * @param pageSize   bytes a page.
 * @param slabBytes  the kernel's slab memory.
 */
record KernelMemory(long tcpSockets, long tcpPages, long pageSize, long slabBytes)
{
    /**
     * Reads it now.
     *
     * @return the figures.
     * @throws BenchException where {@code /proc} does not have them (not Linux).
     */
    static KernelMemory now()
    {
        final KeyValues tcp = pairs(field(Path.of("/proc/net/sockstat"), "TCP:"));
        final Path ipv6 = Path.of("/proc/net/sockstat6");
        final long tcp6 = Files.exists(ipv6) ? pairs(field(ipv6, "TCP6:")).number("inuse") : 0;
        final String slab = field(Path.of("/proc/meminfo"), "Slab:").replace("kB", "").trim();
        return new KernelMemory(tcp.number("inuse") + tcp6, tcp.number("mem"), kernelPageSize(),
            Long.parseLong(slab) * 1024);
    }

    /** @return the TCP buffers' bytes. */
    long tcpBufferBytes()
    {
        return tcpPages * pageSize;
    }

    /** {@code inuse 1 orphan 0 ...} as pairs. */
    private static KeyValues pairs(final String words)
    {
        return KeyValues.of(words.replaceAll("(\\w+) (\\d+)", "$1=$2"));
    }

    /** The size of this process's first mapping's pages: the kernel's page, which sockstat counts in. */
    private static long kernelPageSize()
    {
        final String size = field(Path.of("/proc/self/smaps"), "KernelPageSize:").replace("kB", "").trim();
        return Long.parseLong(size) * 1024;
    }

    /** The rest of the first line that starts with a name. */
    private static String field(final Path file, final String name)
    {
        try (BufferedReader lines = Files.newBufferedReader(file))
        {
            String line;
            while ((line = lines.readLine()) != null)
            {
                if (line.startsWith(name))
                {
                    return line.substring(name.length());
                }
            }
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot read " + file + ": " + ex);
        }
        throw new BenchException("no '" + name + "' in " + file);
    }
}
