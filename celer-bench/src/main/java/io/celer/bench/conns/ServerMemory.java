package io.celer.bench.conns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CommandedChild;
import io.celer.bench.peer.server.MemoryAfterGc;
import io.celer.bench.peer.server.YoungGenerationFill;

/**
 * A server process's memory at one moment, after full collections: its resident set from
 * {@code /proc/PID/status}, and what it says of its heap and direct buffers when told {@code memory}.
 *
 * @param rssBytes      resident set ({@code VmRSS}).
 * @param heapBytes     heap in use after the collections.
 * @param directBytes   the JDK's direct buffers' bytes.
 * @param directBuffers how many there are.
 * @param gcMillis      what the collections took.
 */
record ServerMemory(long rssBytes, long heapBytes, long directBytes, long directBuffers, long gcMillis)
{
    /** A full collection of a few gigabytes of live heap on a loaded machine. */
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    /**
     * Has the server collect, then measures it; the resident set is read after the collections, whose compaction
     * it may show.
     *
     * @param server the server, reading commands on its stdin.
     * @return its memory now.
     * @throws BenchException if it does not answer in time or its status cannot be read.
     */
    static ServerMemory measure(final CommandedChild server)
    {
        server.send("memory");
        final KeyValues reported = KeyValues.of(server.awaitLine("'memory' line",
            line -> line.startsWith(MemoryAfterGc.PREFIX), TIMEOUT));
        return new ServerMemory(residentBytes(server.pid()), reported.number("heap_used"),
            reported.number("direct_used"), reported.number("direct_buffers"), reported.number("gc_ms"));
    }

    /**
     * Has the server fill its young generation once, so that a baseline taken next holds its pages.
     *
     * @param server the server, reading commands on its stdin.
     * @throws BenchException if it does not answer in time.
     */
    static void fillYoungGeneration(final CommandedChild server)
    {
        server.send("fill-young");
        server.awaitLine("'young' line", line -> line.startsWith(YoungGenerationFill.PREFIX), TIMEOUT);
    }

    private static long residentBytes(final long pid)
    {
        final Path status = Path.of("/proc", Long.toString(pid), "status");
        try
        {
            for (final String line : Files.readAllLines(status))
            {
                if (line.startsWith("VmRSS:"))
                {
                    // "VmRSS:	  123456 kB"
                    return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").trim()) * 1024;
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            throw new BenchException("cannot read the resident set in " + status + ": " + ex);
        }
        throw new BenchException("no VmRSS in " + status);
    }
}
