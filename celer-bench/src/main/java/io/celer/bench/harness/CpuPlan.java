package io.celer.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Which CPU the server and the client of a run get, or why they get none.
 *
 * <p>The two sides take the last two CPUs this process may use, leaving the first ones to the harness and
 * the rest of the machine when there are more than two.
 *
 * @param pinned    whether the children are pinned.
 * @param serverCpu the server's CPU, or -1.
 * @param clientCpu the client's CPU, or -1.
 * @param note      a sentence for the output.
 * @param allowed   every CPU this process may use, empty when not pinned.
 */
public record CpuPlan(boolean pinned, int serverCpu, int clientCpu, String note, List<Integer> allowed)
{
    /**
     * A plan without pinning.
     *
     * @param why the reason, for the output.
     * @return the plan.
     */
    public static CpuPlan unpinned(final String why)
    {
        return new CpuPlan(false, -1, -1, "not pinned: " + why, List.of());
    }

    /**
     * Pins when this machine allows it.
     *
     * @param wanted false when pinning was turned off.
     * @return the plan.
     */
    public static CpuPlan detect(final boolean wanted)
    {
        if (!wanted)
        {
            return unpinned("turned off with --no-pin");
        }
        final List<Integer> cpus = allowedCpus();
        if (cpus == null)
        {
            return unpinned("cannot read this process's CPU affinity (not Linux?)");
        }
        if (cpus.size() < 2)
        {
            return unpinned("only " + cpus.size() + " CPU available, client and server share it");
        }
        if (!tasksetWorks())
        {
            return unpinned("taskset (util-linux) is not installed");
        }
        final int server = cpus.get(cpus.size() - 1);
        final int client = cpus.get(cpus.size() - 2);
        String note = "server pinned to CPU " + server + ", client to CPU " + client + " (taskset -c)";
        if (cpus.size() == 2)
        {
            note += "; with only 2 CPUs, each side's JIT and GC threads share its CPU, and the harness floats";
        }
        return new CpuPlan(true, server, client, note, List.copyOf(cpus));
    }

    /**
     * The command prefix that pins a child.
     *
     * @param cpu the CPU, or -1.
     * @return {@code taskset -c N}, or nothing.
     */
    public List<String> prefix(final int cpu)
    {
        return pinned && cpu >= 0 ? List.of("taskset", "-c", Integer.toString(cpu)) : List.of();
    }

    /**
     * The command prefix that keeps a child off one CPU, for a process whose I/O thread alone pins itself there.
     *
     * @param cpu the CPU to leave to that thread, or -1.
     * @return {@code taskset -c LIST} of the other CPUs, or nothing.
     */
    public List<String> prefixExcept(final int cpu)
    {
        if (!pinned || cpu < 0)
        {
            return List.of();
        }
        final StringBuilder others = new StringBuilder();
        for (final int other : allowed)
        {
            if (other != cpu)
            {
                others.append(others.length() == 0 ? "" : ",").append(other);
            }
        }
        return others.length() == 0 ? List.of() : List.of("taskset", "-c", others.toString());
    }

    private static List<Integer> allowedCpus()
    {
        final List<Integer> cpus = new ArrayList<>();
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Cpus_allowed_list:"))
                {
                    for (final String range : line.substring(line.indexOf(':') + 1).trim().split(","))
                    {
                        final String[] ends = range.split("-");
                        final int from = Integer.parseInt(ends[0].trim());
                        final int to = ends.length > 1 ? Integer.parseInt(ends[1].trim()) : from;
                        for (int cpu = from; cpu <= to; cpu++)
                        {
                            cpus.add(cpu);
                        }
                    }
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
        return cpus.isEmpty() ? null : cpus;
    }

    private static boolean tasksetWorks()
    {
        try
        {
            final Process p = new ProcessBuilder("taskset", "-p", Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final IOException ex)
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
