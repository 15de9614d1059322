package io.celer.test;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The live heap by class, from the JVM's class histogram (the one {@code jmap -histo:live} prints, which runs a
 * full collection first): what objects of Celer's a number of idle connections keep, counted exactly rather than
 * guessed from the heap's total, which the JIT, the test's own threads and the collector all move.
 */
public final class LiveHeap
{
    /** A histogram row: rank, instances, bytes, class name (module, if any). */
    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    /** A lambda's suffix, different from run to run (and JDK to JDK): its rows are summed under one name. */
    private static final Pattern LAMBDA = Pattern.compile("\\$\\$Lambda.*$");

    private LiveHeap()
    {
    }

    /**
     * Bytes of live objects per class whose name starts with {@code prefix}, and of arrays of them, after a full
     * collection.
     *
     * @param prefix the classes counted, e.g. {@code "io.celer."}.
     * @return bytes by class name, sorted by name.
     */
    public static Map<String, Long> bytesByClass(final String prefix)
    {
        final String histogram;
        try
        {
            histogram = (String)ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {null}, new String[] {String[].class.getName()});
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException("no class histogram from this JVM", ex);
        }
        final Map<String, Long> bytes = new TreeMap<>();
        for (final String line : histogram.split("\n"))
        {
            final Matcher row = ROW.matcher(line);
            if (row.find() && (row.group(3).startsWith(prefix) || row.group(3).startsWith("[L" + prefix)))
            {
                final String name = LAMBDA.matcher(row.group(3)).replaceFirst("\\$\\$Lambda");
                bytes.merge(name, Long.parseLong(row.group(2)), Long::sum);
            }
        }
        return bytes;
    }

    /**
     * What each class grew by from {@code before} to {@code after}, per {@code count} (of connections, say);
     * classes that grew by less than {@code count} bytes are left out.
     *
     * @param before a histogram from {@link #bytesByClass}.
     * @param after  a later one.
     * @param count  what the growth is divided by.
     * @return bytes per count by class name, sorted by name.
     */
    public static Map<String, Long> growthPer(final Map<String, Long> before, final Map<String, Long> after,
        final int count)
    {
        final Map<String, Long> growth = new TreeMap<>();
        after.forEach((name, bytes) ->
        {
            final long grown = (bytes - before.getOrDefault(name, 0L)) / count;
            if (grown > 0)
            {
                growth.put(name, grown);
            }
        });
        return growth;
    }
}
