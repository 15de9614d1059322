package io.celer.bench.harness;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a Netty peer on Netty 4.2 needs beyond the others: celer-bench-netty42's build (its classes and
 * {@code lib/}, made by every build; {@code -Dceler.bench.netty42} names another build directory), whose class path
 * its children run on instead of the harness's, where Vert.x holds Netty 4.1; and a transport that Netty says
 * runs here (a child on that class path asks it, once per transport).
 */
public final class Netty42
{
    /** The module's main class that answers whether a transport runs here. */
    private static final String PROBE = "io.celer.bench.peer.netty.TransportProbe";

    /** Why each transport cannot run here, once asked: "" when it can. */
    private static final Map<String, String> REFUSALS = new ConcurrentHashMap<>();

    private Netty42()
    {
    }

    /**
     * Whether a peer runs on it.
     *
     * @param peer the peer.
     * @return true for a Netty 4.2 peer.
     */
    public static boolean uses(final Peer peer)
    {
        return peer.onNetty42();
    }

    /**
     * Why a peer on it cannot run here.
     *
     * @param peer a peer that {@link #uses} it.
     * @return the reason, or null when it can.
     */
    public static String unavailable(final Peer peer)
    {
        if (build() == null)
        {
            return "celer-bench-netty42 is not built (./celer builds it)";
        }
        final String refusal = REFUSALS.computeIfAbsent(peer.transport(), Netty42::probe);
        return refusal.isEmpty() ? null : refusal;
    }

    private static String probe(final String transport)
    {
        try
        {
            final Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath(), PROBE, transport).redirectErrorStream(true).start();
            final String said = new String(probe.getInputStream().readAllBytes()).trim();
            return probe.waitFor() == 0 ? "" : transport + " refused (" + said + ")";
        }
        catch (final IOException ex)
        {
            return transport + " could not be probed (" + ex.getMessage() + ")";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return transport + " could not be probed (interrupted)";
        }
    }

    /**
     * Drops the Netty 4.2 peers that cannot run here from a run, saying why.
     *
     * @param chosen the peers asked for; those that cannot run are removed.
     * @param out    where the note goes.
     * @param <P>    the benchmark's peer type.
     * @throws IllegalArgumentException if no peer is left.
     */
    public static <P extends Peer> void dropIfUnavailable(final List<P> chosen, final PrintStream out)
    {
        for (final P peer : List.copyOf(chosen))
        {
            final String reason = uses(peer) ? unavailable(peer) : null;
            if (reason != null)
            {
                chosen.remove(peer);
                out.println("Skipping " + peer.id() + ": " + reason);
                if (chosen.isEmpty())
                {
                    throw new IllegalArgumentException(peer.id() + " cannot run here: " + reason);
                }
            }
        }
    }

    /**
     * The class path of its children: the module's classes and its dependencies, Netty 4.2 among them.
     *
     * @return the class path.
     */
    public static String classpath()
    {
        final Path build = build();
        return build.resolve("classes") + File.pathSeparator + build.resolve("lib").resolve("*");
    }

    /**
     * The module's build directory.
     *
     * @return it, or null when the module is not built.
     */
    private static Path build()
    {
        final String given = System.getProperty("celer.bench.netty42");
        // From the project's root, as ./celer runs, or from a module's directory, as its tests run.
        final Path build = given != null && !given.isBlank() ? Path.of(given)
            : Files.isDirectory(Path.of("celer-bench-netty42")) ? Path.of("celer-bench-netty42", "target")
            : Path.of("..", "celer-bench-netty42", "target");
        return Files.isDirectory(build.resolve("classes")) && Files.isDirectory(build.resolve("lib"))
            ? build.toAbsolutePath() : null;
    }
}
