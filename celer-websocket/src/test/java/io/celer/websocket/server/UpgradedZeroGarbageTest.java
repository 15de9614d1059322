package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Reactors;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.NoAllocation;
import io.celer.websocket.Pinger;
import io.celer.websocket.WebSocketConfig;
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

    @RegisterExtension
    final Reactors reactors = new Reactors();

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
        final Pinger pinger = new Pinger(false);
        final WebSocketClient client = new WebSocketClient(clientReactor, "ws://127.0.0.1:" + server.port() + "/",
            new WebSocketConfig(), pinger).compression(compressed ? new PerMessageDeflate(false, false) : null).open();

        final NoAllocation.Least least =
            NoAllocation.leastAllocated(pinger, WARM_UP, MEASURED, serverReactor.thread(), clientReactor.thread());

        assertThat(client.compression() != null).isEqualTo(compressed);
        assertThat(pinger.mismatches()).isZero();
        assertThat(least.roundTrips()).as("round trips measured").isGreaterThanOrEqualTo(MIN_MEASURED);
        assertThat(least.server()).as("server reactor bytes over %d round trips", least.roundTrips()).isZero();
        assertThat(least.client()).as("client reactor bytes over %d round trips", least.roundTrips()).isZero();
    }
}
