package io.celer.bench.harness;

import java.util.HashMap;
import java.util.Map;

/**
 * What one side of a run reported about itself: collections and I/O-thread allocation while measuring.
 *
 * @param gcCount            collections during the measured phase, or null where there is no JVM.
 * @param allocatedBytes     bytes the I/O thread allocated during the measured phase, or null.
 * @param messages           messages the side handled in that phase.
 * @param jdk                the side's {@code java.runtime.version}, or null.
 * @param nanos              the side's own measured time, for throughput runs; null otherwise.
 * @param lost               datagrams a UDP client gave up waiting for while measuring; null otherwise.
 * @param values             every {@code key=value} of the line, for what only some benchmarks report.
 */
public record SideStats(Long gcCount, Long allocatedBytes, long messages, String jdk, Long nanos, Long lost,
    Map<String, String> values)
{
    /** The prefix of the line a child prints. */
    public static final String PREFIX = "stats ";

    /**
     * Parses a child's {@code stats key=value ...} line.
     *
     * @param line the line.
     * @return the stats.
     * @throws BenchException if the line lacks the message count.
     */
    public static SideStats parse(final String line)
    {
        final Map<String, String> values = new HashMap<>();
        for (final String pair : line.substring(PREFIX.length()).trim().split("\\s+"))
        {
            final int eq = pair.indexOf('=');
            if (eq > 0)
            {
                values.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        if (!values.containsKey("messages"))
        {
            throw new BenchException("stats line without a message count: " + line);
        }
        return new SideStats(longOrNull(values.get("gc")), longOrNull(values.get("allocated")),
            Long.parseLong(values.get("messages")), values.get("jdk"), longOrNull(values.get("nanos")),
            longOrNull(values.get("lost")), Map.copyOf(values));
    }

    /**
     * Bytes allocated per message on the I/O thread.
     *
     * @return the average, or null where not measured.
     */
    public Double allocatedPerMessage()
    {
        return allocatedBytes == null || messages == 0 ? null : (double)allocatedBytes / messages;
    }

    /**
     * The process's CPU time while measuring, user and kernel, where the side reports it.
     *
     * @return milliseconds, or null.
     */
    public Long cpuMillis()
    {
        final Long user = number("cpu_user_ms");
        final Long system = number("cpu_sys_ms");
        return user == null || system == null ? null : user + system;
    }

    /**
     * The process's CPU time, user and kernel, per message it handled while measuring.
     *
     * @return microseconds per message, or null where the side reports no CPU time or handled nothing.
     */
    public Double cpuMicrosPerMessage()
    {
        return microsPerMessage(cpuMillis());
    }

    /**
     * The process's CPU time in user space alone per message it handled while measuring: the part its own code
     * (and its JIT and GC threads) spent, without the kernel's system calls every server makes alike.
     *
     * @return microseconds per message, or null where the side reports no CPU time or handled nothing.
     */
    public Double userCpuMicrosPerMessage()
    {
        return microsPerMessage(number("cpu_user_ms"));
    }

    private Double microsPerMessage(final Long millis)
    {
        return millis == null || messages <= 0 ? null : millis * 1e3 / messages;
    }

    /**
     * The process's CPU time over its own measured time, where it reports both.
     *
     * @return percent of one core, or null.
     */
    public Double cpuPercent()
    {
        final Long millis = cpuMillis();
        return millis == null || nanos == null || nanos <= 0 ? null : millis * 1e8 / nanos;
    }

    /**
     * A number only some benchmarks report.
     *
     * @param key its name in the stats line.
     * @return the value, or null when absent.
     */
    public Long number(final String key)
    {
        return longOrNull(values.get(key));
    }

    private static Long longOrNull(final String value)
    {
        return value == null ? null : Long.valueOf(value);
    }
}
