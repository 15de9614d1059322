package io.celer.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.PingClient;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;
import io.celer.test.Transports;

/**
 * Measures, without asserting a bound, how many bytes the reactor threads allocate per 256-byte echo round
 * trip over TLS once the handshake is done and the JIT is quiet. Plain TCP allocates nothing
 * ({@code ZeroGarbageTest}); what TLS allocates is the JDK's {@code SSLEngine}: a result object per wrap and
 * unwrap, and its record cipher's per-record work. The figures go to the test's output.
 */
class TlsAllocationTest
{
    private static final int SIZE = 256;
    /** Round trips per window: a fair sample, and seconds at most even where a round trip takes a millisecond. */
    private static final long WINDOW = 2_000;
    /** A window's bound: a round trip may wait for a core, never this long. */
    private static final Duration WINDOW_BOUND = Duration.ofMinutes(2);

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void bytesAllocatedPerEchoRoundTripOverTls() throws Exception
    {
        // The transports before the busy-spinning reactors: the first TLS one in a JVM makes the test
        // certificates, some twenty keytool runs that two spinning threads on two cores would slow severalfold.
        final TcpConfig serverConfig = new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new FixedSizeFraming(SIZE)).transport(Transports.TLS.server());
        final TcpConfig clientConfig =
            new TcpConfig().framing(() -> new FixedSizeFraming(SIZE)).transport(Transports.TLS.client());
        final Reactor serverReactor = reactors.start("server", new BusySpinIdleStrategy());
        final Reactor clientReactor = reactors.start("client", new BusySpinIdleStrategy());

        final Handler echo = new Handler()
        {
            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                connection.send(message);
            }
        };
        final TcpServer server = new TcpServer(serverReactor, 0, serverConfig, echo).open();
        final PingClient ping = new PingClient(SIZE);
        new TcpClient(clientReactor, "127.0.0.1", server.port(), clientConfig, ping).open();

        final SteadyAllocation.Window window = () -> ping.awaitMore(WINDOW, WINDOW_BOUND);
        final List<Long> onServer = SteadyAllocation.perWindow(serverReactor.thread(), window);
        final long start = ping.roundTrips();
        final long startNanos = System.nanoTime();
        final List<Long> onClient = SteadyAllocation.perWindow(clientReactor.thread(), window);
        final long measured = ping.roundTrips() - start;
        final long micros = (System.nanoTime() - startNanos) / 1_000;

        assertThat(ping.failure()).isNull();
        System.out.printf("TLS %s, %d-byte echo, windows of %d round trips (%.1f us each): bytes allocated per " +
            "round trip %s on the server reactor, %s on the client reactor%n", Runtime.version(), SIZE, WINDOW,
            micros / (double)measured, perRoundTrip(onServer), perRoundTrip(onClient));
    }

    private static List<String> perRoundTrip(final List<Long> windows)
    {
        return windows.stream().map(bytes -> String.format("%.1f", bytes / (double)WINDOW)).toList();
    }
}
