package io.celer.bench.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a Celer peer on a native transport (epoll or io_uring) needs beyond the others: a JDK 22 or later,
 * {@code celer-native}'s jar (built by {@code ./celer} when such a JDK is installed; {@code -Dceler.bench.nativeJar}
 * names another), the flags that allow native access and pick the transport, and for io_uring a kernel that gives
 * this process one (a child on that JDK asks it, once).
 */
public final class NativeTransport
{
    /** The transport name a peer on epoll gives. */
    public static final String EPOLL = "epoll";
    /** The transport name a peer on io_uring gives. */
    public static final String URING = "uring";
    /** The JDK release from which the FFM API is final. */
    public static final int MINIMUM_JDK = 22;

    /** Why io_uring cannot run here, once asked: "" when it can. */
    private static volatile String uringRefusal;

    private NativeTransport()
    {
    }

    /**
     * The native transport a peer runs on.
     *
     * @param peer the peer.
     * @return {@link #EPOLL} or {@link #URING}, or null for a peer on neither.
     */
    public static String of(final Peer peer)
    {
        final String transport = peer.transport();
        if (!peer.isCeler() || transport == null)
        {
            return null;
        }
        final int dash = transport.indexOf('-');
        final String base = dash < 0 ? transport : transport.substring(0, dash);
        return base.equals(EPOLL) ? EPOLL : base.equals(URING) ? URING : null;
    }

    /**
     * Whether a peer runs on it.
     *
     * @param peer the peer.
     * @return true for a Celer peer whose transport is {@link #EPOLL} or {@link #URING}, alone or with a mode
     *     ({@code epoll-poll}).
     */
    public static boolean uses(final Peer peer)
    {
        return of(peer) != null;
    }

    /**
     * What a Celer peer on it is told as {@code --transport}: how it uses its channels ({@code poll} for
     * {@code epoll-poll}), the transport itself being a JVM flag.
     *
     * @param peer a peer that {@link #uses} it.
     * @return the rest of its transport's name, or null when there is none.
     */
    public static String childTransport(final Peer peer)
    {
        final String transport = peer.transport();
        final int dash = transport.indexOf('-');
        return dash < 0 ? null : transport.substring(dash + 1);
    }

    /**
     * Why it cannot run here.
     *
     * @return the reason, or null when it can.
     */
    public static String unavailable()
    {
        if (jdk() == null)
        {
            return "no JDK " + MINIMUM_JDK + "+ found (in $CELER_JDK21 or under /usr/lib/jvm)";
        }
        if (jar() == null)
        {
            return "celer-native's jar is not built (./celer builds it when a JDK " + MINIMUM_JDK + "+ is installed)";
        }
        return null;
    }

    /**
     * Why a peer's native transport cannot run here.
     *
     * @param peer a peer that {@link #uses} one.
     * @return the reason, or null when it can.
     */
    public static String unavailable(final Peer peer)
    {
        final String reason = unavailable();
        return reason != null || !URING.equals(of(peer)) ? reason : uringRefusal();
    }

    /**
     * Why the kernel gives no io_uring here, asked once of a child on the native JDK, which falls back to epoll
     * silently otherwise: a peer named for io_uring must run on it.
     */
    private static String uringRefusal()
    {
        String refusal = uringRefusal;
        if (refusal == null)
        {
            try
            {
                final Process probe = new ProcessBuilder(jdk().resolve("bin").resolve("java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", jar().toString(), "io.celer.linux.uring.IoUringProbe")
                    .redirectErrorStream(true).start();
                final String said = new String(probe.getInputStream().readAllBytes()).trim();
                refusal = probe.waitFor() == 0 ? "" : "io_uring refused (" + said + ")";
            }
            catch (final IOException ex)
            {
                refusal = "io_uring could not be probed (" + ex.getMessage() + ")";
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                refusal = "io_uring could not be probed (interrupted)";
            }
            uringRefusal = refusal;
        }
        return refusal.isEmpty() ? null : refusal;
    }

    /**
     * Drops the peers on a native transport from a run when it cannot run here, saying why.
     *
     * @param chosen the peers asked for; those on a transport that cannot run are removed.
     * @param out    where the note goes.
     * @param <P>    the benchmark's peer type.
     * @throws IllegalArgumentException if no peer is left.
     */
    public static <P extends Peer> void dropIfUnavailable(final List<P> chosen, final PrintStream out)
    {
        for (final String transport : List.of(EPOLL, URING))
        {
            final P first = chosen.stream().filter(peer -> transport.equals(of(peer))).findFirst().orElse(null);
            final String reason = first == null ? null : unavailable(first);
            if (reason != null && chosen.removeIf(peer -> transport.equals(of(peer))))
            {
                final String which = transport.equals(EPOLL) ? "epoll" : "io_uring";
                out.println("Skipping the " + which + " peers: " + reason);
                if (chosen.isEmpty())
                {
                    throw new IllegalArgumentException("the " + which + " peers cannot run here: " + reason);
                }
            }
        }
    }

    /**
     * The JDK its children run on.
     *
     * @return its home, or null.
     */
    public static Path jdk()
    {
        return Jdks.atLeast(MINIMUM_JDK);
    }

    /**
     * The module's jar.
     *
     * @return its path, or null when there is none.
     */
    public static Path jar()
    {
        final String given = System.getProperty("celer.bench.nativeJar");
        if (given != null && !given.isBlank())
        {
            return Files.isRegularFile(Path.of(given)) ? Path.of(given) : null;
        }
        // From the project's root, as ./celer runs, or from a module's directory, as its tests run.
        Path target = Path.of("celer-native", "target");
        if (!Files.isDirectory(target))
        {
            target = Path.of("..", "celer-native", "target");
        }
        if (!Files.isDirectory(target))
        {
            return null;
        }
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "celer-native-*.jar"))
        {
            for (final Path jar : jars)
            {
                final String name = jar.getFileName().toString();
                if (!name.endsWith("-tests.jar") && !name.endsWith("-sources.jar") && !name.endsWith("-javadoc.jar"))
                {
                    return jar.toAbsolutePath();
                }
            }
        }
        catch (final IOException ex)
        {
            return null;
        }
        return null;
    }

    /**
     * The JVM flags of a peer's children.
     *
     * @param peer a peer that {@link #uses} a native transport.
     * @return the flags.
     */
    public static List<String> jvmOptions(final Peer peer)
    {
        return List.of("--enable-native-access=ALL-UNNAMED", "-Dceler.transport=" + of(peer));
    }
}
