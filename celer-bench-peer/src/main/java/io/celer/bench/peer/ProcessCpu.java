package io.celer.bench.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time this process has used, in user and in kernel mode, from {@code /proc/self/stat}: what a benchmark
 * side costs the machine, its system calls included, which the JVM's own counters do not split.
 */
public final class ProcessCpu
{
    private static final Path STAT = Path.of("/proc/self/stat");
    /**
     * Linux reports these times in clock ticks of {@code USER_HZ}, 100 a second on every architecture's default
     * build; the JDK offers no way to ask.
     */
    private static final long MILLIS_PER_TICK = 10;
    private static final int UTIME = 14;
    private static final int STIME = 15;

    private final long userMillis;
    private final long systemMillis;

    private ProcessCpu(final long userMillis, final long systemMillis)
    {
        this.userMillis = userMillis;
        this.systemMillis = systemMillis;
    }

    /**
     * Reads the process's times now; allocates, so call it outside an allocation measure.
     *
     * @return the times, or null where {@code /proc/self/stat} cannot be read.
     */
    public static ProcessCpu now()
    {
        try
        {
            return parse(Files.readString(STAT, StandardCharsets.US_ASCII));
        }
        catch (final IOException | RuntimeException ex)
        {
            // Not Linux, or not readable: the stats line leaves the figures out.
            return null;
        }
    }

    /**
     * Parses a {@code /proc/PID/stat} line.
     *
     * @param stat the line.
     * @return its user and kernel times.
     * @throws IllegalArgumentException if it is not such a line.
     */
    static ProcessCpu parse(final String stat)
    {
        // The command name, field 2, is in parentheses and may hold spaces: count fields after its closing one.
        final int close = stat.lastIndexOf(')');
        if (close < 0)
        {
            throw new IllegalArgumentException("not a stat line: " + stat);
        }
        final String[] fields = stat.substring(close + 1).trim().split("\\s+");
        // fields[0] is field 3 (the state).
        if (fields.length < STIME - 2)
        {
            throw new IllegalArgumentException("a stat line with " + fields.length + " fields after the name");
        }
        return new ProcessCpu(Long.parseLong(fields[UTIME - 3]) * MILLIS_PER_TICK,
            Long.parseLong(fields[STIME - 3]) * MILLIS_PER_TICK);
    }

    /**
     * The stats line's figures since an earlier reading.
     *
     * @param since the earlier reading, or null.
     * @return {@code " cpu_user_ms=U cpu_sys_ms=S"}, or empty when either reading is missing.
     */
    public String since(final ProcessCpu since)
    {
        return since == null ? "" : " cpu_user_ms=" + (userMillis - since.userMillis) + " cpu_sys_ms=" +
            (systemMillis - since.systemMillis);
    }

    /**
     * User-mode time.
     *
     * @return milliseconds since the process started.
     */
    public long userMillis()
    {
        return userMillis;
    }

    /**
     * Kernel-mode time.
     *
     * @return milliseconds since the process started.
     */
    public long systemMillis()
    {
        return systemMillis;
    }
}
