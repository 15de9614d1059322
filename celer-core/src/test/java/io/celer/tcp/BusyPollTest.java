package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.test.Await;
import io.celer.test.PingClient;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;
import io.celer.test.Transports;

/**
 * Busy-polled connections, over plain TCP and TLS: read every cycle, with or without the selector's help.
 */
class BusyPollTest
{
    private static final int SIZE = 256;
    /** Round trips per allocation window: garbage made per message or per poll shows in every window. */
    private static final long WINDOW = 10_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Echoes each message and reports how it closed.
     */
    private static final class Echo implements Handler
    {
        final CompletableFuture<CloseReason> closed = new CompletableFuture<>();

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            connection.send(message);
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            closed.complete(reason);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void connectionsThatOnlyPollingReadsEchoAndSeeThePeerClose(final Transports transport) throws Exception
    {
        // The transports before the busy-spinning reactors: the first TLS one in a JVM makes the test
        // certificates, some twenty keytool runs that two spinning threads on two cores would slow severalfold.
        final TcpConfig config = new TcpConfig().bindAddress("127.0.0.1").busyPoll(true)
            .framing(() -> new FixedSizeFraming(SIZE));
        final TcpConfig serverConfig = config.copy().transport(transport.server());
        final TcpConfig clientConfig = config.copy().transport(transport.client());
        // Once a poller is registered the selector runs once in a billion cycles, that is never in this test:
        // every message and the close must come through polling.
        final Reactor serverReactor = reactors.start(new ReactorConfig().name("server").selectInterval(1 << 30));
        final Reactor clientReactor = reactors.start(new ReactorConfig().name("client").selectInterval(1 << 30));
        final Echo echo = new Echo();
        final TcpServer server = new TcpServer(serverReactor, 0, serverConfig, echo).open();
        final PingClient ping = new PingClient(SIZE);
        final TcpClient client = new TcpClient(clientReactor, "127.0.0.1", server.port(), clientConfig, ping).open();

        Await.until(() -> "round trips: " + ping.roundTrips() + ", failure " + ping.failure(),
            () -> ping.roundTrips() >= 2_000 || ping.failure() != null, Duration.ofSeconds(60));
        assertThat(ping.failure()).isNull();
        assertThat(pollers(serverReactor)).isEqualTo(1);
        assertThat(pollers(clientReactor)).isEqualTo(1);

        client.close();
        assertThat(echo.closed.get(30, TimeUnit.SECONDS)).isEqualTo(CloseReason.PEER_CLOSED);
        assertThat(pollers(serverReactor)).isZero();
        assertThat(pollers(clientReactor)).isZero();
    }

    @Test
    void busyPolledRoundTripsAllocateNothingOnTheReactorThreads() throws Exception
    {
        final Reactor serverReactor = reactors.start("server", new BusySpinIdleStrategy());
        final Reactor clientReactor = reactors.start("client", new BusySpinIdleStrategy());
        final TcpConfig config = new TcpConfig().bindAddress("127.0.0.1").busyPoll(true)
            .framing(() -> new FixedSizeFraming(SIZE));
        final TcpServer server = new TcpServer(serverReactor, 0, config, new Echo()).open();
        final PingClient ping = new PingClient(SIZE);
        new TcpClient(clientReactor, "127.0.0.1", server.port(), config, ping).open();

        final List<Long> windows = SteadyAllocation.perWindow(List.of(serverReactor.thread(), clientReactor.thread()),
            () -> ping.awaitMore(WINDOW, Duration.ofMinutes(2)));

        assertThat(ping.failure()).isNull();
        assertThat(windows).as("bytes allocated by the two reactor threads per window of %d round trips", WINDOW)
            .endsWith(0L);
    }

    private static int pollers(final Reactor reactor)
    {
        final AtomicInteger count = new AtomicInteger();
        reactor.call(() -> count.set(reactor.internals().pollerCount()));
        return count.get();
    }
}
