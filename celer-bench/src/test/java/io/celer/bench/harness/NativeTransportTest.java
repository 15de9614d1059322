package io.celer.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where the epoll transport cannot run, a benchmark drops its peers and says why, and refuses a run left with
 * none; the others are kept as given.
 */
class NativeTransportTest
{
    private static final String JAR = "celer.bench.nativeJar";
    private static final FixedPeer CELER = new FixedPeer("celer", "NIO", true, null);
    private static final FixedPeer CELER_EPOLL = new FixedPeer("celer-epoll", "epoll", true, NativeTransport.EPOLL);
    private static final FixedPeer NETTY = new FixedPeer("netty", "Netty on epoll", false, NativeTransport.EPOLL);
    private static final FixedPeer CELER_URING_POLL = new FixedPeer("celer-uring-poll", "io_uring, busy-polled", true,
        "uring-poll");

    private final String before = System.getProperty(JAR);
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    @AfterEach
    void restore()
    {
        if (before == null)
        {
            System.clearProperty(JAR);
        }
        else
        {
            System.setProperty(JAR, before);
        }
    }

    @Test
    void withoutTheJarItsPeersAreDroppedWithTheReasonAndOnlyThem()
    {
        System.setProperty(JAR, "no-such-dir/celer-native.jar");
        assertThat(NativeTransport.unavailable()).isNotNull();
        final List<FixedPeer> chosen = new ArrayList<>(List.of(CELER, CELER_EPOLL, NETTY));
        NativeTransport.dropIfUnavailable(chosen, out);
        assertThat(chosen).containsExactly(CELER, NETTY);
        assertThat(printed.toString(StandardCharsets.UTF_8)).startsWith("Skipping the epoll peers: ")
            .contains(NativeTransport.unavailable());
    }

    @Test
    void aRunLeftWithNoPeerIsRefused()
    {
        System.setProperty(JAR, "no-such-dir/celer-native.jar");
        final List<FixedPeer> chosen = new ArrayList<>(List.of(CELER_EPOLL));
        assertThatThrownBy(() -> NativeTransport.dropIfUnavailable(chosen, out))
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("the epoll peers cannot run here: ");
    }

    @Test
    void peersOnOtherTransportsAreKeptSilently()
    {
        System.setProperty(JAR, "no-such-dir/celer-native.jar");
        final List<FixedPeer> chosen = new ArrayList<>(List.of(NETTY, CELER));
        NativeTransport.dropIfUnavailable(chosen, out);
        assertThat(chosen).containsExactly(NETTY, CELER);
        assertThat(printed.size()).isZero();
    }

    @Test
    void aPeersNativeTransportIsItsNameBeforeTheModeAndReachesItsJvmAsAFlag()
    {
        assertThat(NativeTransport.of(CELER_URING_POLL)).isEqualTo(NativeTransport.URING);
        assertThat(NativeTransport.childTransport(CELER_URING_POLL)).isEqualTo("poll");
        assertThat(NativeTransport.jvmOptions(CELER_URING_POLL)).contains("-Dceler.transport=uring");
        assertThat(NativeTransport.of(CELER_EPOLL)).isEqualTo(NativeTransport.EPOLL);
        assertThat(NativeTransport.childTransport(CELER_EPOLL)).isNull();
        assertThat(NativeTransport.jvmOptions(CELER_EPOLL)).contains("-Dceler.transport=epoll");
        assertThat(NativeTransport.uses(NETTY)).as("Netty's own epoll is not Celer's").isFalse();
        assertThat(NativeTransport.uses(CELER)).isFalse();
    }

    @Test
    void withoutTheJarBothNativeTransportsPeersAreDroppedEachWithItsNote()
    {
        System.setProperty(JAR, "no-such-dir/celer-native.jar");
        final List<FixedPeer> chosen = new ArrayList<>(List.of(CELER_EPOLL, CELER, CELER_URING_POLL));
        NativeTransport.dropIfUnavailable(chosen, out);
        assertThat(chosen).containsExactly(CELER);
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("Skipping the epoll peers: ")
            .contains("Skipping the io_uring peers: ");
    }
}
