package io.celer.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.Reactors;

/**
 * After warm-up, UDP ping-pong allocates nothing on either reactor thread, sender addresses included.
 */
class UdpZeroGarbageTest
{
    private static final long WARMUP = 100_000;
    private static final long MEASURED = 500_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Sends the next numbered datagram when the echo of the last one arrives.
     */
    private static final class Ping implements DatagramHandler
    {
        final ByteBuffer out = ByteBuffer.allocateDirect(256);
        volatile long roundTrips;
        volatile String failure;

        @Override
        public void datagram(final UdpEndpoint endpoint, final ByteBuffer payload, final InetSocketAddress sender)
        {
            if (payload.remaining() != 256 || payload.getLong(payload.position()) != roundTrips)
            {
                failure = "unexpected echo";
                return;
            }
            roundTrips++;
            send(endpoint, sender);
        }

        void send(final UdpEndpoint endpoint, final InetSocketAddress target)
        {
            out.clear();
            out.putLong(0, roundTrips);
            if (!endpoint.send(out, target))
            {
                failure = "send refused";
            }
        }
    }

    @Test
    // Two busy-spinning reactors on a small, shared machine: a million round trips may take minutes.
    @org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void pingPongAllocatesNothing()
    {
        final Reactor serverReactor = reactors.start("udp-server", new BusySpinIdleStrategy());
        final Reactor clientReactor = reactors.start("udp-client", new BusySpinIdleStrategy());
        final UdpEndpoint server = new UdpEndpoint(serverReactor, 0, new UdpConfig().bindAddress("127.0.0.1"),
            (endpoint, payload, sender) -> endpoint.send(payload, sender)).open();
        final Ping ping = new Ping();
        final UdpEndpoint client = new UdpEndpoint(clientReactor, 0, new UdpConfig().bindAddress("127.0.0.1"), ping)
            .open();
        final InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.port());
        clientReactor.call(() -> ping.send(client, target));

        Await.until(() -> "warm-up at " + ping.roundTrips + ", failure " + ping.failure,
            () -> ping.roundTrips >= WARMUP || ping.failure != null, Duration.ofSeconds(240));
        final long serverBefore = Allocations.allocatedBytes(serverReactor.thread());
        final long clientBefore = Allocations.allocatedBytes(clientReactor.thread());
        final long start = ping.roundTrips;
        Await.until(() -> "measured at " + (ping.roundTrips - start) + ", failure " + ping.failure,
            () -> ping.roundTrips - start >= MEASURED || ping.failure != null, Duration.ofSeconds(600));
        final long serverAllocated = Allocations.allocatedBytes(serverReactor.thread()) - serverBefore;
        final long clientAllocated = Allocations.allocatedBytes(clientReactor.thread()) - clientBefore;

        assertThat(ping.failure).isNull();
        assertThat(serverAllocated).as("bytes allocated by the server reactor").isZero();
        assertThat(clientAllocated).as("bytes allocated by the client reactor").isZero();
    }
}
