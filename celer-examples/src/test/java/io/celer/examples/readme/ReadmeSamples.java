package io.celer.examples.readme;

import java.nio.ByteBuffer;

import io.celer.framing.LineFraming;
import io.celer.http.HeaderField;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.outbound.Fanout;
import io.celer.websocket.outbound.OutboundConfig;
import io.celer.websocket.outbound.OverflowPolicy;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * The README's samples, as they appear there (between the markers), so that they compile and run: the README
 * test checks the README still shows them word for word.
 */
final class ReadmeSamples
{
    private ReadmeSamples()
    {
    }

    static Reactor echo(final int port)
    {
        // README:begin echo
        Reactor reactor = Reactor.create();                          // one thread, busy-spinning
        new TcpServer(reactor, port,
            new TcpConfig().framing(() -> new LineFraming(1024)),    // one message per line
            new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer line)
                {
                    connection.send(line);                           // write and flush; nothing allocated
                }
            }).open();
        reactor.start();
        // README:end
        return reactor;
    }

    static Reactor http(final int port)
    {
        // README:begin http
        Reactor reactor = Reactor.create();
        HeaderField textPlain = HeaderField.of("Content-Type", "text/plain"); // encoded once, copied per response
        Router routes = Router.builder()
            .get("/hello", (request, response) -> response.header(textPlain).body("hello"))
            .post("/echo", (request, response) -> response.body(request.body()))
            .build();
        new HttpServer(reactor, port, new HttpServerConfig(), routes).open();
        reactor.start();
        // README:end
        return reactor;
    }

    static Reactor feed(final int port)
    {
        // README:begin feed
        Reactor reactor = Reactor.create();
        Fanout feed = new Fanout(new OutboundConfig()
            .maxQueuedMessages(1_000)                                // per client; a slow one queues up to this,
            .overflowPolicy(OverflowPolicy.DROP_OLDEST));            // then loses its oldest, never the others' time
        Router routes = Router.builder()
            .get("/feed", new WebSocketUpgrade(new WebSocketConfig(), () -> feed.handler(new WebSocketHandler() { })))
            .build();
        new HttpServer(reactor, port, new HttpServerConfig(), routes).open();
        TimerCallback publish = new TimerCallback()
        {
            private final ByteBuffer message = ByteBuffer.allocate(8);

            @Override
            public void onTimer(final long timerId, final long nowMillis)
            {
                feed.broadcastBinary(message.clear().putLong(nowMillis).flip());  // sent, or queued per client
                reactor.schedule(10, this);                                       // again in 10 ms
            }
        };
        reactor.start();
        reactor.execute(() -> reactor.schedule(10, publish));
        // README:end
        return reactor;
    }
}
