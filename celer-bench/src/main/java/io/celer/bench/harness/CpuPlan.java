package io.celer.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Which CPUs the server and the client of a run get, or why they get none.
 *
 * <p>The two sides take the last CPUs this process may use, the server one per reactor (or event loop) and the
 * client the one before, leaving the first ones to the harness and the rest of the machine when there are more.
 * A server with as many reactors as there are CPUs takes them all, and the client shares them.
 *
 * @param servers    the server's reactors (or event loops).
 * @param pinned     whether the children are pinned.
 * @param serverCpus the server's CPUs, one per reactor, empty when not pinned.
 * @param clientCpu  the client's CPU, or -1 when not pinned or when it shares the server's.
 * @param note       a sentence for the output.
 * @param allowed    every CPU this process may use, empty when not pinned.
 */
public record CpuPlan(int servers, boolean pinned, List<Integer> serverCpus, int clientCpu, String note, List<Integer> allowed)
{
    /**
     * A plan without pinning.
     *
     * @param servers the server's reactors.
     * @param why     the reason, for the output.
     * @return the plan.
     */
    public static CpuPlan unpinned(final int servers, final String why)
    {
        return new CpuPlan(servers, false, List.of(), -1, "not pinned: " + why, List.of());
    }

    /**
     * Pins a server of one reactor when this machine allows it.
     *
     * @param wanted false when pinning was turned off.
     * @return the plan.
     */
    public static CpuPlan detect(final boolean wanted)
    {
        return detect(wanted, 1);
    }

    /**
     * Pins a server of several reactors, a CPU each, when this machine allows it.
     *
     * @param wanted  false when pinning was turned off.
     * @param servers the server's reactors (or event loops), from 1 to {@link #available()}.
     * @return the plan.
     * @throws IllegalArgumentException if there are fewer CPUs than reactors, or no reactor.
     */
    public static CpuPlan detect(final boolean wanted, final int servers)
    {
        if (servers < 1 || servers > available())
        {
            throw new IllegalArgumentException("a server of " + servers + " reactors on " + available() + " CPUs");
        }
        if (!wanted)
        {
            return unpinned(servers, "turned off with --no-pin");
        }
        final List<Integer> cpus = allowedCpus();
        if (cpus == null)
        {
            return unpinned(servers, "cannot read this process's CPU affinity (not Linux?)");
        }
        if (cpus.size() < 2)
        {
            return unpinned(servers, "only " + cpus.size() + " CPU available, client and server share it");
        }
        if (!tasksetWorks())
        {
            return unpinned(servers, "taskset (util-linux) is not installed");
        }
        final List<Integer> server = List.copyOf(cpus.subList(cpus.size() - servers, cpus.size()));
        if (servers == cpus.size())
        {
            return new CpuPlan(servers, true, server, -1, "server pinned to CPUs " + list(server) + " (its reactors or "
                + "event loops floating within them), the client on the same CPUs (taskset -c): with " + servers
                + " server reactors on " + cpus.size() + " CPUs the server and the client share every CPU",
                List.copyOf(cpus));
        }
        final int client = cpus.get(cpus.size() - servers - 1);
        String note = servers == 1 ? "server pinned to CPU " + server.get(0)
            : "server pinned to CPUs " + list(server) + " (a reactor or event loop each)";
        note += ", client to CPU " + client + " (taskset -c)";
        if (cpus.size() == 2)
        {
            note += "; with only 2 CPUs, each side's JIT and GC threads share its CPU, and the harness floats";
        }
        return new CpuPlan(servers, true, server, client, note, List.copyOf(cpus));
    }

    /**
     * The CPUs this process may use, or the JVM's count where the affinity cannot be read: the most server
     * reactors a run can have.
     *
     * @return at least 1.
     */
    public static int available()
    {
        final List<Integer> cpus = allowedCpus();
        return cpus == null ? Runtime.getRuntime().availableProcessors() : cpus.size();
    }

    /**
     * The server's first CPU: its only one with one reactor.
     *
     * @return the CPU, or -1 when not pinned.
     */
    public int serverCpu()
    {
        return serverCpus.isEmpty() ? -1 : serverCpus.get(0);
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
     * The command prefix that pins a server to its CPUs.
     *
     * @return {@code taskset -c LIST}, or nothing.
     */
    public List<String> serverPrefix()
    {
        return pinned && !serverCpus.isEmpty() ? List.of("taskset", "-c", list(serverCpus)) : List.of();
    }

    /**
     * CPUs as taskset and the peers' {@code --cpus} take them.
     *
     * @param cpus the CPUs.
     * @return such as {@code 2,3}.
     */
    public static String list(final List<Integer> cpus)
    {
        final StringBuilder text = new StringBuilder();
        for (final int cpu : cpus)
        {
            text.append(text.length() == 0 ? "" : ",").append(cpu);
        }
        return text.toString();
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
        final List<Integer> others = new ArrayList<>(allowed);
        others.remove(Integer.valueOf(cpu));
        return others.isEmpty() ? List.of() : List.of("taskset", "-c", list(others));
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
