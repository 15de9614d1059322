package io.celer.bench.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a Celer peer on the epoll transport needs beyond the others: a JDK 22 or later, {@code celer-native}'s jar
 * (built by {@code ./celer} when such a JDK is installed; {@code -Dceler.bench.nativeJar} names another), and the
 * flags that allow native access and pick the transport.
 */
public final class NativeTransport
{
    /** The transport name a peer gives for it. */
    public static final String EPOLL = "epoll";
    /** The JDK release from which the FFM API is final. */
    public static final int MINIMUM_JDK = 22;

    private NativeTransport()
    {
    }

    /**
     * Whether a peer runs on it.
     *
     * @param peer the peer.
     * @return true for a Celer peer whose transport is {@link #EPOLL}, alone or with a mode ({@code epoll-poll}).
     */
    public static boolean uses(final Peer peer)
    {
        return peer.isCeler() && peer.transport() != null &&
            (peer.transport().equals(EPOLL) || peer.transport().startsWith(EPOLL + "-"));
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
        return transport.length() > EPOLL.length() ? transport.substring(EPOLL.length() + 1) : null;
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
     * Drops the peers on it from a run when it cannot run here, saying why.
     *
     * @param chosen the peers asked for; those on it are removed when it cannot run.
     * @param out    where the note goes.
     * @param <P>    the benchmark's peer type.
     * @throws IllegalArgumentException if no peer is left.
     */
    public static <P extends Peer> void dropIfUnavailable(final List<P> chosen, final PrintStream out)
    {
        final String reason = unavailable();
        if (reason != null && chosen.removeIf(NativeTransport::uses))
        {
            out.println("Skipping the epoll peers: " + reason);
            if (chosen.isEmpty())
            {
                throw new IllegalArgumentException("the epoll peers cannot run here: " + reason);
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
     * The JVM flags of its children.
     *
     * @return the flags.
     */
    public static List<String> jvmOptions()
    {
        return List.of("--enable-native-access=ALL-UNNAMED", "-Dceler.transport=" + EPOLL);
    }
}
