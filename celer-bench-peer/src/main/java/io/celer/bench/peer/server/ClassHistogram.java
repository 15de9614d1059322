package io.celer.bench.peer.server;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The live heap by class, for the harness's {@code classes} command: the JVM's class histogram (the
 * {@code GC.class_histogram} diagnostic command, run in the process, which collects first), the classes holding
 * the most bytes, so that the harness can say which objects a server's connections keep.
 */
public final class ClassHistogram
{
    /** How the line starts. */
    public static final String PREFIX = "classes ";
    /** The classes the line names at most, the largest first: enough to hold every class a connection adds. */
    static final int MAX_CLASSES = 400;

    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

    private ClassHistogram()
    {
    }

    /**
     * Collects, then lists the classes.
     *
     * @return {@code classes NAME=BYTES/INSTANCES ...}, the largest first, at most {@value #MAX_CLASSES}.
     */
    public static String line()
    {
        final StringBuilder line = new StringBuilder(PREFIX);
        final List<String> rows = rows();
        for (int i = 0; i < rows.size() && i < MAX_CLASSES; i++)
        {
            line.append(i == 0 ? "" : " ").append(rows.get(i));
        }
        return line.toString();
    }

    /** The histogram's rows as {@code NAME=BYTES/INSTANCES}, in its order (bytes, largest first). */
    private static List<String> rows()
    {
        final String text;
        try
        {
            text = (String)ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(DIAGNOSTIC_COMMAND),
                "gcClassHistogram", new Object[] {new String[0]}, new String[] {String[].class.getName()});
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException("no class histogram from this JVM", ex);
        }
        final List<String> rows = new ArrayList<>();
        for (final String row : text.split("\n"))
        {
            final Matcher match = ROW.matcher(row);
            if (match.find())
            {
                rows.add(match.group(3) + "=" + match.group(2) + "/" + match.group(1));
            }
        }
        return rows;
    }
}
