package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.http.HttpServer;
import io.celer.http.HttpServerConfig;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.deflate.PerMessageDeflate;

/**
 * After the real handshake (the HTTP server's upgrade, the client's strict check) and warm-up, echoing messages
 * allocates nothing on the server's or the client's reactor thread, with and without permessage-deflate: the
 * upgraded connection's path through the HTTP server adds no garbage to the session's.
 */
class UpgradedZeroGarbageTest
{
    private static final long WARM_UP = 20_000;
    private static final long MEASURED = 20_000;
    private static final long MIN_MEASURED = 5_000;
    private static final String TEXT = "Gr\u00fc\u00dfe \u4e16\u754c \uD83D\uDE00 " + "some ascii ".repeat(10);

    private final Reactors reactors = new Reactors();

    @AfterEach
    void stop()
    {
        reactors.close();
    }

    /** Sends text and binary in turn, the next when the last came back. */
    private static final class Pinger implements WebSocketHandler
    {
        private final ByteBuffer binary = ByteBuffer.allocateDirect(700);
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
            if (!message.contentEquals(TEXT))
            {
                mismatches++;
            }
            roundTrips++;
            next(socket);
        }

        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            if (message.remaining() != binary.capacity())
            {
                mismatches++;
            }
            roundTrips++;
            next(socket);
        }

        private void next(final WebSocket socket)
        {
            if ((sent++ & 1) == 0)
            {
                socket.sendText(TEXT);
            }
            else
            {
                socket.sendBinary(binary.clear());
            }
        }
    }

    @ParameterizedTest(name = "permessage-deflate: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void echoesAllocateNothingAfterTheUpgrade(final boolean compressed) throws Exception
    {
        final Reactor serverReactor = reactors.start("server");
        final Reactor clientReactor = reactors.start("client");
        final HttpServer server = new HttpServer(serverReactor, 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            new WebSocketUpgrade(new WebSocketConfig(), new EchoHandler())
                .compression(new PerMessageDeflate(false, false))).open();
        final Pinger pinger = new Pinger();
        final WebSocketClient client = new WebSocketClient(clientReactor, "ws://127.0.0.1:" + server.port() + "/",
            new WebSocketConfig(), pinger).compression(compressed ? new PerMessageDeflate(false, false) : null).open();

        Await.until(() -> "warm-up, at " + pinger.roundTrips, () -> pinger.roundTrips >= WARM_UP,
            Duration.ofMinutes(3));
        assertThat(client.compression() != null).isEqualTo(compressed);
        // The least of a few rounds: a compiler tier change may allocate once, a per-message allocation shows
        // in every round.
        long leastServer = Long.MAX_VALUE;
        long leastClient = Long.MAX_VALUE;
        long measured = Long.MAX_VALUE;
        for (int round = 0; round < 5 && (leastServer > 0 || leastClient > 0); round++)
        {
            final long serverBefore = Allocations.allocatedBytes(serverReactor.thread());
            final long clientBefore = Allocations.allocatedBytes(clientReactor.thread());
            final long start = pinger.roundTrips;
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (pinger.roundTrips - start < MEASURED && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            measured = Math.min(measured, pinger.roundTrips - start);
            leastServer = Math.min(leastServer, Allocations.allocatedBytes(serverReactor.thread()) - serverBefore);
            leastClient = Math.min(leastClient, Allocations.allocatedBytes(clientReactor.thread()) - clientBefore);
        }
        final long serverAllocated = leastServer;
        final long clientAllocated = leastClient;

        assertThat(pinger.mismatches).isZero();
        assertThat(measured).as("round trips measured").isGreaterThanOrEqualTo(MIN_MEASURED);
        assertThat(serverAllocated).as("server reactor bytes over %d round trips", measured).isZero();
        assertThat(clientAllocated).as("client reactor bytes over %d round trips", measured).isZero();
    }
}
