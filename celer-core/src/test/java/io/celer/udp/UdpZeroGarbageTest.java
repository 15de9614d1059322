package io.celer.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;

/**
 * Once the JIT is quiet, windows of UDP ping-pong allocate nothing on either reactor thread, sender addresses
 * included.
 */
class UdpZeroGarbageTest
{
    /** Round trips per window: garbage made per datagram or per sender shows in every window. */
    private static final long WINDOW = 10_000;
    /** A window's bound: a round trip may wait for a core, never this long. */
    private static final Duration WINDOW_BOUND = Duration.ofMinutes(2);

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

        /**
         * Waits until more round trips have completed, each echo checked.
         */
        void awaitMore(final long count)
        {
            final long target = roundTrips + count;
            Await.until(() -> "round trip " + target + ", at " + roundTrips + ", failure " + failure,
                () -> roundTrips >= target || failure != null, WINDOW_BOUND);
            if (failure != null)
            {
                throw new AssertionError(failure);
            }
        }
    }

    @Test
    // Two busy-spinning reactors on a small, shared machine: a window may take seconds, and up to 23 of them run.
    @org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void pingPongAllocatesNothing() throws Exception
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

        final List<Long> windows = SteadyAllocation.perWindow(
            List.of(serverReactor.thread(), clientReactor.thread()), () -> ping.awaitMore(WINDOW));

        assertThat(ping.failure).isNull();
        assertThat(windows).as("bytes allocated by the two reactor threads per window of %d round trips", WINDOW)
            .endsWith(0L);
    }
}
