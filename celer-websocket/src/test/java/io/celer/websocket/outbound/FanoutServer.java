package io.celer.websocket.outbound;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.internal.WebSocketSession;

/**
 * A server whose WebSocket sessions (upgraded by a stub, on plain TCP) send through a {@link Fanout}: the
 * outbound tests' server, alone or in a {@link SlowClientRig}. Stops with its reactor.
 */
final class FanoutServer
{
    private final Reactor reactor;
    private final Fanout fanout;
    /** The ids of the connections whose sessions opened, in order; a test may clear it. */
    final ConcurrentLinkedQueue<Long> openedIds = new ConcurrentLinkedQueue<>();
    private final int port;

    FanoutServer(final Reactor reactor, final Fanout fanout, final TcpConfig tcp)
    {
        this.reactor = reactor;
        this.fanout = fanout;
        final WebSocketHandler application = new WebSocketHandler()
        {
            @Override
            public void opened(final WebSocket socket)
            {
                openedIds.add(socket.connection().id());
            }
        };
        port = new TcpServer(reactor, 0, tcp, new StubUpgrade(true,
            () -> WebSocketSession.server(new WebSocketConfig(), fanout.handler(application)))).open().port();
    }

    int port()
    {
        return port;
    }

    /**
     * Waits until exactly one client is open.
     *
     * @return its outbox, to be used on the reactor.
     */
    Outbox awaitOneClient()
    {
        Await.until(() -> "client open", () -> OnReactor.get(reactor, fanout::clientCount) == 1,
            Duration.ofSeconds(30));
        final long id = openedIds.peek();
        return OnReactor.get(reactor, () -> fanout.client(id));
    }
}
