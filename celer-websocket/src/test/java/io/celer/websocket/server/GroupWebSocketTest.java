package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.TcpConfig;
import io.celer.test.JdkWebSocketEvents;
import io.celer.test.Reactors;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * WebSocket upgrades on every reactor of a group: each session runs on the reactor that accepted its
 * connection, with that reactor's upgrade.
 */
class GroupWebSocketTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void sessionsRunOnTheReactorOfTheirConnection() throws Exception
    {
        final ReactorGroup group = reactors.startGroup("ws", 2);
        final HttpServer server = new HttpServer(group, 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")
                .acceptSpread(TcpConfig.AcceptSpread.LEAST_LOADED)),
            reactor -> new WebSocketUpgrade(new WebSocketConfig(), () -> new WebSocketHandler()
            {
                @Override
                public void text(final WebSocket socket, final Utf8Text message)
                {
                    socket.sendText((reactor.isReactorThread() ? "" : "WRONG ") + Thread.currentThread().getName() +
                        " " + message);
                }
            })).open();
        final Set<String> threads = new HashSet<>();
        final HttpClient http = HttpClient.newHttpClient();
        final java.util.List<java.net.http.WebSocket> open = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            final JdkWebSocketEvents events = new JdkWebSocketEvents();
            final java.net.http.WebSocket client = http.newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/"), events).get(30, TimeUnit.SECONDS);
            client.sendText("hello " + i, true).get(30, TimeUnit.SECONDS);
            final String echo = events.next();
            assertThat(echo).matches("text:ws-[01] hello " + i);
            threads.add(echo.substring(5, 9));
            open.add(client); // held open: the least loaded reactor takes the next
        }
        for (final java.net.http.WebSocket client : open)
        {
            client.sendClose(1000, "").get(30, TimeUnit.SECONDS);
        }
        assertThat(threads).containsExactlyInAnyOrder("ws-0", "ws-1");
        server.close();
    }
}
