package io.celer.bench.conns;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.celer.bench.harness.BenchException;

/**
 * A class whose live objects grew while a server held its connections, per connection: from the server's class
 * histograms before and with them ({@code classes} lines), so that the report can say which objects a
 * connection keeps, the server's own and its JDK's.
 *
 * @param name      the class, as the JVM names it ({@code [B} for byte arrays).
 * @param bytes     bytes of live objects per connection.
 * @param instances objects per connection.
 */
record ClassGrowth(String name, double bytes, double instances)
{
    /** How a server's line starts. */
    static final String PREFIX = "classes ";

    /**
     * The classes that grew the most between two histograms, per connection.
     *
     * @param before      the line before the connections.
     * @param after       the line with them.
     * @param connections how many were held.
     * @param top         how many classes to keep, the largest growth first.
     * @return at most {@code top} classes, each grown by at least one byte per connection.
     */
    static List<ClassGrowth> between(final String before, final String after, final int connections, final int top)
    {
        final Map<String, long[]> was = parse(before);
        final List<ClassGrowth> grown = new ArrayList<>();
        for (final Map.Entry<String, long[]> now : parse(after).entrySet())
        {
            final long[] then = was.getOrDefault(now.getKey(), new long[2]);
            final double bytes = (double)(now.getValue()[0] - then[0]) / connections;
            if (bytes >= 1)
            {
                grown.add(new ClassGrowth(now.getKey(), bytes, (double)(now.getValue()[1] - then[1]) / connections));
            }
        }
        grown.sort(Comparator.comparingDouble(ClassGrowth::bytes).reversed());
        return List.copyOf(grown.subList(0, Math.min(top, grown.size())));
    }

    /** {@code classes NAME=BYTES/INSTANCES ...} as bytes and instances by class. */
    private static Map<String, long[]> parse(final String line)
    {
        if (!line.startsWith(PREFIX))
        {
            throw new BenchException("not a classes line: " + line);
        }
        final Map<String, long[]> classes = new HashMap<>();
        for (final String row : line.substring(PREFIX.length()).trim().split(" "))
        {
            final int equals = row.lastIndexOf('=');
            final int slash = row.lastIndexOf('/');
            if (row.isEmpty())
            {
                continue;
            }
            if (equals < 1 || slash < equals)
            {
                throw new BenchException("not NAME=BYTES/INSTANCES: " + row);
            }
            classes.put(row.substring(0, equals), new long[] {Long.parseLong(row.substring(equals + 1, slash)),
                Long.parseLong(row.substring(slash + 1))});
        }
        return classes;
    }
}
