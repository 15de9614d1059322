package io.celer.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Assumptions;

/**
 * A network namespace of the test's own, joined to this one by a veth pair on a /30 of its own: a real link
 * whose far end the test takes down and up to make a partition that neither side hears of. Needs root and
 * iproute2; without them the test is skipped, saying which is missing. {@link #close()} removes the namespace
 * and the pair, whatever happened.
 */
public final class NetworkNamespace implements AutoCloseable
{
    /** The subnets 10.199.1.0/30 to 10.199.250.0/30, one per namespace at a time on the machine. */
    private static final int SUBNETS = 250;
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final String name;
    private final String hostEnd;
    private final String farEnd;
    private final String hostAddress;
    private final String farAddress;

    private NetworkNamespace(final int subnet)
    {
        name = "celer-faults-" + subnet;
        // Interface names have at most 15 characters.
        hostEnd = "cvh" + subnet;
        farEnd = "cvf" + subnet;
        hostAddress = "10.199." + subnet + ".1";
        farAddress = "10.199." + subnet + ".2";
    }

    /**
     * Makes the namespace and its link, or skips the test.
     *
     * @return the namespace, its link up.
     * @throws Exception if a command fails after the checks passed.
     */
    public static NetworkNamespace create() throws Exception
    {
        Assumptions.assumeTrue("0".equals(output("id", "-u").trim()), "network namespaces need root");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")) ||
            Files.isExecutable(Path.of("/usr/bin/ip")), "no ip command (iproute2)");
        // The name holds the subnet, and making a namespace whose name exists fails: two JVMs making namespaces at
        // once (the test lanes run side by side) never share a subnet, whose routes would cross.
        final int start = (int)(ProcessHandle.current().pid() % SUBNETS) + COUNT.incrementAndGet();
        NetworkNamespace namespace = null;
        Result made = null;
        for (int i = 0; i < SUBNETS && namespace == null; i++)
        {
            final NetworkNamespace candidate = new NetworkNamespace((start + i) % SUBNETS + 1);
            made = run("ip", "netns", "add", candidate.name);
            if (made.status == 0)
            {
                namespace = candidate;
            }
            else if (!made.output.contains("exists"))
            {
                break;
            }
        }
        Assumptions.assumeTrue(namespace != null, "cannot make a network namespace here: " + made.output);
        try
        {
            run("ip", "link", "del", namespace.hostEnd); // left by a run that was killed, if any
            namespace.ip("link", "add", namespace.hostEnd, "type", "veth", "peer", "name", namespace.farEnd);
            namespace.ip("link", "set", namespace.farEnd, "netns", namespace.name);
            namespace.ip("addr", "add", namespace.hostAddress + "/30", "dev", namespace.hostEnd);
            namespace.ip("link", "set", namespace.hostEnd, "up");
            namespace.inside("ip", "addr", "add", namespace.farAddress + "/30", "dev", namespace.farEnd);
            namespace.inside("ip", "link", "set", namespace.farEnd, "up");
            namespace.inside("ip", "link", "set", "lo", "up");
        }
        catch (final Exception | Error ex)
        {
            namespace.close();
            throw ex;
        }
        return namespace;
    }

    /**
     * The address of the far end, inside the namespace.
     *
     * @return the IPv4 address.
     */
    public String farAddress()
    {
        return farAddress;
    }

    /**
     * A command line that runs a program inside the namespace.
     *
     * @param command the program and its arguments.
     * @return {@code ip netns exec NAME command...}.
     */
    public List<String> exec(final List<String> command)
    {
        final List<String> line = new ArrayList<>(List.of("ip", "netns", "exec", name));
        line.addAll(command);
        return line;
    }

    /**
     * Takes the far end down: what is sent to it is lost, and nothing comes back, with no word to either side.
     *
     * @throws Exception if the command fails.
     */
    public void partition() throws Exception
    {
        inside("ip", "link", "set", farEnd, "down");
    }

    /**
     * Brings the far end back up.
     *
     * @throws Exception if the command fails.
     */
    public void heal() throws Exception
    {
        inside("ip", "link", "set", farEnd, "up");
    }

    /** Removes the namespace, and with it both ends of the pair. */
    @Override
    public void close() throws Exception
    {
        run("ip", "netns", "del", name);
        run("ip", "link", "del", hostEnd); // gone with its peer already, unless that was never moved
    }

    private void ip(final String... args) throws Exception
    {
        final List<String> line = new ArrayList<>(List.of("ip"));
        line.addAll(List.of(args));
        check(run(line.toArray(String[]::new)), line);
    }

    private void inside(final String... command) throws Exception
    {
        final List<String> line = exec(List.of(command));
        check(run(line.toArray(String[]::new)), line);
    }

    private static void check(final Result result, final List<String> line) throws IOException
    {
        if (result.status != 0)
        {
            throw new IOException(String.join(" ", line) + " failed (" + result.status + "): " + result.output);
        }
    }

    private record Result(int status, String output)
    {
    }

    private static Result run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return new Result(-1, "timed out: " + output);
        }
        return new Result(process.exitValue(), output.trim());
    }

    private static String output(final String... command) throws IOException, InterruptedException
    {
        return run(command).output;
    }
}
