package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Reactors;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.NoAllocation;
import io.celer.websocket.Pinger;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;

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

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @ParameterizedTest(name = "permessage-deflate: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void exchangesAllocateNothingOnTheReactorThreads(final boolean compressed) throws Exception
    {
        final DeflateParameters agreed = new DeflateParameters(false, false, 0, 0);
        final Reactor serverReactor = reactors.start("server");
        final Reactor clientReactor = reactors.start("client");
        final int port = new TcpServer(serverReactor, 0, new TcpConfig().bindAddress("127.0.0.1"),
            new StubUpgrade(true, () -> compressed ? WebSocketSession.server(new WebSocketConfig(), new EchoHandler())
                .compression(agreed) : WebSocketSession.server(new WebSocketConfig(), new EchoHandler()))).open().port();
        final Pinger pinger = new Pinger(true);
        new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig(), new StubUpgrade(false, () -> compressed ?
            WebSocketSession.client(new WebSocketConfig(), pinger).compression(agreed) :
            WebSocketSession.client(new WebSocketConfig(), pinger))).open();

        final NoAllocation.Least least =
            NoAllocation.leastAllocated(pinger, WARM_UP, MEASURED, serverReactor.thread(), clientReactor.thread());

        assertThat(pinger.mismatches()).isZero();
        assertThat(least.roundTrips()).as("round trips measured").isGreaterThanOrEqualTo(MIN_MEASURED);
        assertThat(least.server()).as("server reactor bytes over %d round trips", least.roundTrips()).isZero();
        assertThat(least.client()).as("client reactor bytes over %d round trips", least.roundTrips()).isZero();
    }
}
