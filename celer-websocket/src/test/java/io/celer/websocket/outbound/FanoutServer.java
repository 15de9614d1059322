package io.celer.websocket.outbound;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.WebSocketSession;

/**
 * A server whose WebSocket sessions (upgraded by a stub, on plain TCP) send through a {@link Fanout}, for tests
 * that drive one client's {@link Outbox} on the reactor. Stops with its reactor.
 */
final class FanoutServer
{
    private final Reactor reactor;
    private final Fanout fanout;
    private final AtomicLong lastOpened = new AtomicLong(-1);
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
                lastOpened.set(socket.connection().id());
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
        return OnReactor.get(reactor, () -> fanout.client(lastOpened.get()));
    }
}
