package io.celer.bench.ws.peer;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.bench.peer.vertx.VertxLoop;
import io.vertx.core.http.ServerWebSocket;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Vert.x 4's WebSocket server on one event loop or {@code --loops} (a server verticle instance each, each with a
 * feed of its own clients), native transport when available: {@code /feed} pushes generated
 * messages at {@code --rate} a second to each client, dropping what a client whose write queue is full cannot
 * take when {@code --backpressure=on}; {@code /echo} echoes.
 */
@Command(name = "vertx-ws", mixinStandardHelpOptions = true,
    description = "WebSocket peer: a Vert.x 4 WebSocket server on one event loop or several.")
public final class VertxWebSocketServer implements PeerServer
{
    @Mixin
    PeerOptions options = new PeerOptions();

    @Mixin
    FeedOptions feedOptions = new FeedOptions();

    private VertxLoop loop;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --loops=L --rate=R --size=B --backpressure=on|off --tick-ms=T}; stdin takes
     *             {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new VertxWebSocketServer(), args);
    }

    @Override
    public Serving start() throws Exception
    {
        loop = new VertxLoop(options.loops());
        final List<Feed> feeds = new CopyOnWriteArrayList<>();
        final List<LoopProbe.Loop> loops = new CopyOnWriteArrayList<>();
        final int port = loop.listen(options, feedOptions.sendBuffer, executor ->
        {
            final Feed feed = new Feed(feedOptions);
            loop.vertx().setPeriodic(feedOptions.tickMillis, id -> feed.tick());
            feeds.add(feed);
            loops.add(feed.probed(executor));
            return server -> server.webSocketHandler(socket -> accept(feed, socket));
        });
        Feed.watch(feedOptions, feeds);
        return new Serving(port, new LoopProbe(loops));
    }

    @Override
    public void stop()
    {
        loop.close();
    }

    private static void accept(final Feed feed, final ServerWebSocket socket)
    {
        switch (socket.path())
        {
            case "/feed":
                final Object client = feed.add(new Sink(socket));
                socket.closeHandler(v -> feed.remove(client));
                socket.exceptionHandler(ex -> socket.close());
                break;
            case "/echo":
                socket.textMessageHandler(socket::writeTextMessage);
                socket.binaryMessageHandler(socket::writeBinaryMessage);
                socket.exceptionHandler(ex -> socket.close());
                break;
            default:
                socket.reject(404);
        }
    }

    /**
     * A feed client's socket.
     */
    private static final class Sink implements Feed.Sink
    {
        private final ServerWebSocket socket;

        Sink(final ServerWebSocket socket)
        {
            this.socket = socket;
        }

        @Override
        public boolean open()
        {
            // Writing to a closed socket throws before its close handler runs.
            return !socket.isClosed();
        }

        @Override
        public boolean writable()
        {
            return !socket.writeQueueFull();
        }

        @Override
        public void send(final byte[] ascii, final int length)
        {
            // Vert.x 4 takes text frames as strings only.
            socket.writeTextMessage(new String(ascii, 0, length, StandardCharsets.ISO_8859_1));
        }

        @Override
        public void flush()
        {
            // Vert.x flushes each message itself.
        }
    }
}
