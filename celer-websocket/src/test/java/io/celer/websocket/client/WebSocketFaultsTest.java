package io.celer.websocket.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Reactors;
import io.celer.test.Toxiproxy;
import io.celer.test.Toxiproxy.Direction;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.RecordingWebSocketHandler;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * The WebSocket client against Celer's echo server through Toxiproxy: with every byte stream sliced into pieces of
 * 1 to 9 bytes and 30 ms of jitter both ways, every message comes back whole and in order; reset mid-stream, the
 * client closes cleanly (1006) after a prefix of whole messages, never a torn one. Skipped without Toxiproxy.
 */
@Tag("faults")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WebSocketFaultsTest
{
    private final Reactors reactors = new Reactors();
    private HttpServer server;
    private WebSocketClient client;
    private Toxiproxy toxiproxy;

    @AfterEach
    void stop() throws Exception
    {
        if (client != null)
        {
            client.close();
        }
        if (server != null)
        {
            server.close();
        }
        if (toxiproxy != null)
        {
            toxiproxy.close();
        }
        reactors.close();
    }

    /** An echo server behind a proxy with slicing and jitter both ways; returns the proxy. */
    private Toxiproxy.Proxy echoBehindAFaultyWire() throws Exception
    {
        toxiproxy = Toxiproxy.start();
        server = new HttpServer(reactors.start("server"), 0, new HttpServerConfig().tcp(new TcpConfig()
            .bindAddress("127.0.0.1")), Router.builder()
            .prefix(HttpMethod.GET, "/ws", new WebSocketUpgrade(new WebSocketConfig(), new EchoHandler())).build())
            .open();
        final Toxiproxy.Proxy proxy = toxiproxy.proxy(server.port());
        for (final Direction direction : Direction.values())
        {
            proxy.toxic("jitter-" + direction, "latency", direction, "\"latency\":0,\"jitter\":30")
                .toxic("slices-" + direction, "slicer", direction,
                    "\"average_size\":5,\"size_variation\":4,\"delay\":10");
        }
        return proxy;
    }

    private static String message(final int index)
    {
        // Sizes from 1 byte to past 126, the first extended length, with a character of two bytes in UTF-8.
        return index + ":" + "\u00e9x".repeat(index * 37 % 400);
    }

    /** Sends messages [from, to) from the reactor thread. */
    private void send(final Reactor reactor, final int from, final int to)
    {
        reactor.call(() ->
        {
            for (int i = from; i < to; i++)
            {
                assertThat(client.socket().sendText(message(i))).as("message %d taken", i).isTrue();
            }
        });
    }

    @Test
    void messagesThroughSlicingAndJitterComeBackWholeAndInOrder() throws Exception
    {
        final Toxiproxy.Proxy proxy = echoBehindAFaultyWire();
        final RecordingWebSocketHandler events = new RecordingWebSocketHandler(false);
        final Reactor reactor = reactors.start("client");
        client = new WebSocketClient(reactor, "ws://127.0.0.1:" + proxy.port() + "/ws", new WebSocketConfig(), events)
            .open();
        assertThat(events.next()).isEqualTo("opened");
        final int count = 200;
        for (int batch = 0; batch < count; batch += 20)
        {
            send(reactor, batch, batch + 20);
            for (int i = batch; i < batch + 20; i++)
            {
                assertThat(events.next()).isEqualTo("text:" + message(i));
            }
        }
        reactor.call(() -> client.socket().close(1000, "done"));
        assertThat(events.next()).startsWith("closing:1000:");
        assertThat(events.next()).isEqualTo("closed:1000");
    }

    @Test
    void aResetMidStreamClosesCleanlyAfterWholeMessagesOnly() throws Exception
    {
        final Toxiproxy.Proxy proxy = echoBehindAFaultyWire();
        final RecordingWebSocketHandler events = new RecordingWebSocketHandler(false);
        final Reactor reactor = reactors.start("client");
        client = new WebSocketClient(reactor, "ws://127.0.0.1:" + proxy.port() + "/ws", new WebSocketConfig(), events)
            .open();
        assertThat(events.next()).isEqualTo("opened");
        send(reactor, 0, 20);
        for (int i = 0; i < 20; i++)
        {
            assertThat(events.next()).isEqualTo("text:" + message(i));
        }
        // The server's side of the wire is reset while the next messages are on their way back.
        send(reactor, 20, 60);
        proxy.toxic("reset", "reset_peer", Direction.DOWNSTREAM, "\"timeout\":0");
        final List<String> after = new ArrayList<>();
        String event;
        do
        {
            event = events.next();
            after.add(event);
        }
        while (!event.startsWith("closed:"));
        System.out.println("after the reset: " + after.size() + " events, the last " + event);
        assertThat(event).isEqualTo("closed:1006");
        for (int i = 0; i < after.size() - 1; i++)
        {
            assertThat(after.get(i)).as("event %d after the reset", i).isEqualTo("text:" + message(20 + i));
        }
        assertThat(client.isUpgraded()).isTrue();
    }
}
