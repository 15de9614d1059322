package io.celer.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.websocket.deflate.DeflateParameters;

/**
 * After warm-up, a client and a server session exchanging messages over loopback (text and binary, whole and
 * fragmented with a ping between fragments, answered by an automatic pong) allocate nothing on either reactor
 * thread, with and without permessage-deflate.
 */
class SessionZeroGarbageTest
{
    private static final long WARM_UP = 30_000;
    private static final long MEASURED = 100_000;
    private static final long MIN_MEASURED = 20_000;
    private static final String TEXT = "Gr\u00fc\u00dfe \u4e16\u754c \uD83D\uDE00 " + "some ascii ".repeat(10);
    private static final String TWICE = TEXT + TEXT;

    private final Reactors reactors = new Reactors();

    @AfterEach
    void stop()
    {
        reactors.close();
    }

    /**
     * Echoes every message back as it came.
     */
    private static final class Echo implements WebSocketHandler
    {
        @Override
        public void text(final WebSocket socket, final Utf8Text message)
        {
            socket.sendText(message.bytes());
        }

        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            socket.sendBinary(message);
        }
    }

    /**
     * Sends the next kind of message each time the echo of the last comes back.
     */
    private static final class Pinger implements WebSocketHandler
    {
        private final ByteBuffer binary = ByteBuffer.allocateDirect(700);
        private final ByteBuffer ping = ByteBuffer.allocateDirect(8);
        volatile long roundTrips;
        volatile long mismatches;
        private long sent;

        @Override
        public void opened(final WebSocket socket)
        {
            next(socket);
        }

        @Override
        public void text(final WebSocket socket, final Utf8Text message)
        {
            // Decoding to chars is part of what a text handler does.
            if (!message.contentEquals(TEXT) && !message.contentEquals(TWICE))
            {
                mismatches++;
            }
            roundTrip(socket);
        }

        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            if (message.remaining() != binary.capacity())
            {
                mismatches++;
            }
            roundTrip(socket);
        }

        private void roundTrip(final WebSocket socket)
        {
            roundTrips++;
            next(socket);
        }

        private void next(final WebSocket socket)
        {
            switch ((int)(sent++ & 3))
            {
                case 0:
                    socket.sendText(TEXT);
                    break;
                case 1:
                    socket.sendBinary(binary.clear());
                    break;
                case 2:
                    socket.sendTextFragment(TEXT, false);
                    socket.ping(ping.clear());
                    socket.sendTextFragment(TEXT, true);
                    break;
                default:
                    socket.sendFragment(binary.clear().limit(300), false, false);
                    socket.sendFragment(binary.limit(700), false, true);
                    break;
            }
        }
    }

    @ParameterizedTest(name = "permessage-deflate: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void exchangesAllocateNothingOnTheReactorThreads(final boolean compressed) throws Exception
    {
        final DeflateParameters agreed = new DeflateParameters(false, false, 0, 0);
        final Reactor serverReactor = reactors.start("server");
        final Reactor clientReactor = reactors.start("client");
        final int port = new TcpServer(serverReactor, 0, new TcpConfig().bindAddress("127.0.0.1"),
            new StubUpgrade(true, () -> compressed ? WebSocketSession.server(new WebSocketConfig(), new Echo())
                .compression(agreed) : WebSocketSession.server(new WebSocketConfig(), new Echo()))).open().port();
        final Pinger pinger = new Pinger();
        new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig(), new StubUpgrade(false, () -> compressed ?
            WebSocketSession.client(new WebSocketConfig(), pinger).compression(agreed) :
            WebSocketSession.client(new WebSocketConfig(), pinger))).open();

        Await.until(() -> "warm-up, at " + pinger.roundTrips, () -> pinger.roundTrips >= WARM_UP,
            Duration.ofMinutes(3));
        final long serverBefore = Allocations.allocatedBytes(serverReactor.thread());
        final long clientBefore = Allocations.allocatedBytes(clientReactor.thread());
        final long start = pinger.roundTrips;
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (pinger.roundTrips - start < MEASURED && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        final long measured = pinger.roundTrips - start;
        final long serverAllocated = Allocations.allocatedBytes(serverReactor.thread()) - serverBefore;
        final long clientAllocated = Allocations.allocatedBytes(clientReactor.thread()) - clientBefore;

        assertThat(pinger.mismatches).isZero();
        assertThat(measured).as("round trips measured").isGreaterThanOrEqualTo(MIN_MEASURED);
        assertThat(serverAllocated).as("server reactor bytes over %d round trips", measured).isZero();
        assertThat(clientAllocated).as("client reactor bytes over %d round trips", measured).isZero();
    }
}
