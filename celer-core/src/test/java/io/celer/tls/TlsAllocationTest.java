package io.celer.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;

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
import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.PingClient;
import io.celer.test.Reactors;
import io.celer.test.Transports;

/**
 * Measures, without asserting a bound, how many bytes the reactor threads allocate per 256-byte echo round
 * trip over TLS once the handshake is done. Plain TCP allocates nothing ({@code ZeroGarbageTest}); what TLS
 * allocates is the JDK's {@code SSLEngine}: a result object per wrap and unwrap, and its record cipher's
 * per-record work. The figure goes to the test's output.
 */
class TlsAllocationTest
{
    private static final int SIZE = 256;
    private static final long WARMUP = 20_000;
    private static final long MEASURED = 100_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void bytesAllocatedPerEchoRoundTripOverTls()
    {
        final Reactor serverReactor = reactors.start("server", new BusySpinIdleStrategy());
        final Reactor clientReactor = reactors.start("client", new BusySpinIdleStrategy());
        final TcpConfig serverConfig = new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new FixedSizeFraming(SIZE)).transport(Transports.TLS.server());

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
        new TcpClient(clientReactor, "127.0.0.1", server.port(),
            new TcpConfig().framing(() -> new FixedSizeFraming(SIZE)).transport(Transports.TLS.client()), ping).open();

        Await.until(() -> "warm-up, at " + ping.roundTrips() + ", failure " + ping.failure(),
            () -> ping.roundTrips() >= WARMUP || ping.failure() != null, Duration.ofSeconds(120));
        final long serverBefore = Allocations.allocatedBytes(serverReactor.thread());
        final long clientBefore = Allocations.allocatedBytes(clientReactor.thread());
        final long start = ping.roundTrips();
        final long startNanos = System.nanoTime();

        Await.until(() -> "measured round trips, at " + (ping.roundTrips() - start) + ", failure " + ping.failure(),
            () -> ping.roundTrips() - start >= MEASURED || ping.failure() != null, Duration.ofSeconds(120));
        final long measured = ping.roundTrips() - start;
        final long micros = (System.nanoTime() - startNanos) / 1_000;
        final double perServer = (Allocations.allocatedBytes(serverReactor.thread()) - serverBefore) / (double)measured;
        final double perClient = (Allocations.allocatedBytes(clientReactor.thread()) - clientBefore) / (double)measured;

        assertThat(ping.failure()).isNull();
        System.out.printf("TLS %s, %d-byte echo, %d round trips (%.1f us each): %.1f bytes allocated per round " +
            "trip on the server reactor, %.1f on the client reactor%n", Runtime.version(), SIZE, measured,
            micros / (double)measured, perServer, perClient);
    }
}
