package io.celer.examples.readme;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;

import org.agrona.concurrent.BackoffIdleStrategy;

import io.celer.framing.LengthPrefixedFraming;
import io.celer.http.HttpMethod;
import io.celer.http.client.HttpClient;
import io.celer.http.client.HttpClientConfig;
import io.celer.http.client.HttpClientException;
import io.celer.http.client.HttpClientResponse;
import io.celer.http.client.ResponseListener;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.outbound.Fanout;
import io.celer.websocket.outbound.OutboundConfig;
import io.celer.websocket.outbound.Publication;
import io.celer.websocket.outbound.Publisher;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * The guide's samples (docs/guide.md), as they appear there between the markers, so that they compile and run.
 */
final class GuideSamples
{
    private GuideSamples()
    {
    }

    static Reactor threads(final BlockingQueue<String> out)
    {
        // README:begin threads
        Reactor reactor = new Reactor(new ReactorConfig().name("io")
            .idleStrategy(new BackoffIdleStrategy(100, 10, 1_000, 1_000_000)));   // parks when idle
        reactor.start();
        reactor.callAsync(() -> out.add("on " + Thread.currentThread().getName()));  // from any thread
        reactor.execute(() -> reactor.schedule(100, (timerId, nowMillis) -> out.add("100 ms later")));
        // README:end
        return reactor;
    }

    static ReactorGroup group(final int port, final BlockingQueue<String> out)
    {
        // README:begin group
        ReactorGroup group = new ReactorGroup(2, i -> new ReactorConfig().name("web-" + i)
            .waitInSelector(true));                                   // sleeps in epoll_wait when idle
        group.start();
        HttpServer server = new HttpServer(group, port, new HttpServerConfig(),
            reactor -> Router.builder()                               // one router per reactor thread
                .get("/where", (req, res) -> res.body(Thread.currentThread().getName().getBytes()))
                .build()).open();
        // README:end
        out.add(Integer.toString(server.port()));
        return group;
    }

    static Publisher groupFeed(final ReactorGroup group, final int port, final BlockingQueue<String> out)
    {
        // README:begin group-feed
        Fanout[] clients = new Fanout[group.size()];                  // each member's, used on its thread only
        for (int i = 0; i < clients.length; i++)
        {
            clients[i] = new Fanout(new OutboundConfig().maxMessageLength(256));
        }
        HttpServer feed = new HttpServer(group, port, new HttpServerConfig(),
            reactor -> new WebSocketUpgrade(new WebSocketConfig(),
                () -> clients[group.indexOf(reactor)].handler(new WebSocketHandler() { }))).open();
        Publisher publisher = new Publisher(group, i -> clients[i], 64, 1);  // lanes for one producer thread
        // README:end
        out.add(Integer.toString(feed.port()));
        return publisher;
    }

    static void publish(final Publisher publisher)
    {
        // README:begin group-publish
        Publication tick = publisher.claim(Thread::onSpinWait).toAll().text();  // on the producer thread
        tick.payload().put("tick".getBytes(StandardCharsets.UTF_8));
        publisher.publish();                                          // every member's clients get it
        // README:end
    }

    static TcpClient client(final Reactor reactor, final int port, final BlockingQueue<String> out)
    {
        // README:begin client
        TcpClient client = new TcpClient(reactor, "127.0.0.1", port, new TcpConfig()
            .framing(() -> new LengthPrefixedFraming(4, 16 * 1024))   // a 4-byte length, then the message
            .reconnectDelayMillis(100),                               // 100 ms, doubling, after a lost connection
            new Handler()
            {
                @Override
                public void opened(final Connection connection)
                {
                    connection.send("hello");
                }

                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    out.add(message.remaining() + " bytes");
                }

                @Override
                public void closed(final Connection connection, final io.celer.tcp.CloseReason reason)
                {
                    out.add("closed: " + reason);
                }
            });
        client.open();
        // README:end
        return client;
    }

    static Handler backPressure(final BlockingQueue<String> out)
    {
        // README:begin back-pressure
        // With new TcpConfig().disconnectOnFullWriteBuffer(false): a write that does not fit is refused whole.
        Handler producer = new Handler()
        {
            private final ByteBuffer message = ByteBuffer.allocateDirect(1024);
            private long sent;

            @Override
            public void opened(final Connection connection)
            {
                writeWhileRoom(connection);
            }

            @Override
            public void writable(final Connection connection, final int freeBytes)
            {
                writeWhileRoom(connection);                  // the socket took some: go on where it stopped
            }

            private void writeWhileRoom(final Connection connection)
            {
                while (sent < 10_000 && connection.write(message.clear()))
                {
                    sent++;
                }
                if (sent == 10_000)
                {
                    out.add("all written");
                }
            }
        };
        // README:end
        return producer;
    }

    static HttpClient httpClient(final Reactor reactor, final int port, final BlockingQueue<String> out)
    {
        // README:begin http-client
        HttpClient http = new HttpClient(reactor, new HttpClientConfig(), "127.0.0.1:" + port).open();
        reactor.execute(() -> http.request(HttpMethod.GET, "/hello")
            .header("Accept", "text/plain")
            .send(new ResponseListener()
            {
                @Override
                public void response(final HttpClientResponse response)
                {
                    out.add(response.status() + " " + response.body().remaining() + " bytes");
                }

                @Override
                public void error(final HttpClientException failure)
                {
                    out.add("failed: " + failure.reason());
                }
            }));
        // README:end
        return http;
    }

    static WebSocketClient webSocketClient(final Reactor reactor, final int port, final BlockingQueue<String> out)
    {
        // README:begin websocket-client
        WebSocketClient ws = new WebSocketClient(reactor, "ws://127.0.0.1:" + port + "/echo",
            new WebSocketConfig().pingIntervalMillis(15_000),         // ping a silent server after 15 s
            new WebSocketHandler()
            {
                @Override
                public void opened(final WebSocket socket)
                {
                    socket.sendText("hello");
                }

                @Override
                public void text(final WebSocket socket, final Utf8Text message)
                {
                    out.add(message.toString());
                }
            }).open();
        // README:end
        return ws;
    }
}
