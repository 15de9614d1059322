package io.celer.bench.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The open-file limit of the harness's children, which 10,000 connections outgrow on many machines: a child that
 * needs more than the soft limit starts through a shell that raises it first, up to the hard limit.
 */
public final class FileLimit
{
    /** Descriptors a JVM holds besides its sockets: jars, pipes, epoll. */
    private static final int SPARE = 512;

    private FileLimit()
    {
    }

    /**
     * This process's soft limit, which children inherit.
     *
     * @return the limit, or -1 when unknown (not Linux) or unlimited.
     */
    public static long soft()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/limits")))
            {
                if (line.startsWith("Max open files"))
                {
                    final String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                    return "unlimited".equals(fields[0]) ? -1 : Long.parseLong(fields[0]);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
        return -1;
    }

    /**
     * A command that runs with room for a number of sockets.
     *
     * @param command the child's command.
     * @param sockets the sockets it will hold.
     * @return the command as is when the limit allows, else wrapped in {@code sh -c 'ulimit -n N; exec ...'}.
     */
    public static List<String> withRoomFor(final List<String> command, final int sockets)
    {
        final long soft = soft();
        final long wanted = (long)sockets + SPARE;
        if (soft < 0 || soft >= wanted)
        {
            return command;
        }
        // If the hard limit is lower, ulimit fails and the child runs with what it has: the run then says so.
        final List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "ulimit -n " + wanted
            + " || echo 'cannot raise the open-file limit to " + wanted + "' >&2; exec \"$@\"", "sh"));
        wrapped.addAll(command);
        return wrapped;
    }
}
