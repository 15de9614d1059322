package io.celer.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Netty 4.2 peers' children run on celer-bench-netty42's class path, with Netty 4.2 and no Netty 4.1 on it;
 * where that module is not built or Netty refuses a transport, their peers are dropped with the reason.
 */
class Netty42Test
{
    private static final String BUILD = "celer.bench.netty42";
    private static final FixedPeer NETTY = new FixedPeer("netty", "Netty 4.1 on epoll", false, "epoll");
    private static final FixedPeer NETTY42_EPOLL = FixedPeer.netty42("netty42-epoll", "Netty 4.2 on epoll", "epoll");
    private static final FixedPeer NETTY42_URING = FixedPeer.netty42("netty42-uring", "Netty 4.2 on io_uring",
        "uring");

    private final String before = System.getProperty(BUILD);
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    @AfterEach
    void restore()
    {
        if (before == null)
        {
            System.clearProperty(BUILD);
        }
        else
        {
            System.setProperty(BUILD, before);
        }
    }

    @Test
    void theChildrenRunOnNetty42AloneAndTheOthersOnTheHarnessesClassPath() throws IOException
    {
        // A reactor build makes celer-bench-netty42 before this module, and ./celer builds both.
        assertThat(Netty42.unavailable(NETTY42_EPOLL)).isNull();
        final PeerLauncher launcher = new PeerLauncher(CpuPlan.unpinned(1, "test"), List.of(), false);
        final List<String> command = launcher.server(NETTY42_EPOLL, "io.celer.bench.http.peer.NettyHttpServer",
            Map.of("port", 0));
        assertThat(command.get(command.indexOf("-cp") + 1)).isEqualTo(Netty42.classpath());
        assertThat(command).contains("--transport=epoll");
        final List<String> nettyJars = nettyJars(Path.of(Netty42.classpath().replaceFirst(".*[:]", ""))
            .getParent());
        assertThat(nettyJars).isNotEmpty().allMatch(jar -> jar.contains("-4.2."))
            .anyMatch(jar -> jar.startsWith("netty-transport-native-io_uring-"));
        final List<String> harness = launcher.server(NETTY, "io.celer.bench.http.peer.NettyHttpServer",
            Map.of("port", 0));
        assertThat(harness.get(harness.indexOf("-cp") + 1)).isEqualTo(System.getProperty("java.class.path"));
    }

    @Test
    void aTransportNettyRefusesIsDroppedWithNettysCause()
    {
        // A kernel may refuse io_uring (a container's seccomp often does): then Netty's cause is the note.
        final List<FixedPeer> chosen = new ArrayList<>(List.of(NETTY42_URING, NETTY42_EPOLL, NETTY));
        Netty42.dropIfUnavailable(chosen, out);
        final String uring = Netty42.unavailable(NETTY42_URING);
        if (uring == null)
        {
            assertThat(chosen).containsExactly(NETTY42_URING, NETTY42_EPOLL, NETTY);
            assertThat(printed.size()).isZero();
        }
        else
        {
            assertThat(chosen).containsExactly(NETTY42_EPOLL, NETTY);
            assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo("Skipping netty42-uring: " + uring
                + System.lineSeparator()).contains("Netty 4.2: ");
        }
    }

    @Test
    void withoutTheBuildItsPeersAreDroppedWithTheReasonAndOnlyThem()
    {
        System.setProperty(BUILD, "no-such-dir/target");
        final List<FixedPeer> chosen = new ArrayList<>(List.of(NETTY42_URING, NETTY, NETTY42_EPOLL));
        Netty42.dropIfUnavailable(chosen, out);
        assertThat(chosen).containsExactly(NETTY);
        assertThat(printed.toString(StandardCharsets.UTF_8))
            .contains("Skipping netty42-uring: celer-bench-netty42 is not built", "Skipping netty42-epoll: ");
    }

    @Test
    void aRunLeftWithNoPeerIsRefused()
    {
        System.setProperty(BUILD, "no-such-dir/target");
        final List<FixedPeer> chosen = new ArrayList<>(List.of(NETTY42_URING));
        assertThatThrownBy(() -> Netty42.dropIfUnavailable(chosen, out))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("netty42-uring cannot run here: celer-bench-netty42 is not built (./celer builds it)");
    }

    private static List<String> nettyJars(final Path lib) throws IOException
    {
        try (Stream<Path> jars = Files.list(lib))
        {
            return jars.map(jar -> jar.getFileName().toString()).filter(name -> name.startsWith("netty-")).toList();
        }
    }
}
