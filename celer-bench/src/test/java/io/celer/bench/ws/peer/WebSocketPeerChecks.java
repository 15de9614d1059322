package io.celer.bench.ws.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerServer;

/**
 * What every WebSocket peer must do, checked over loopback with the JDK's WebSocket client and a raw socket
 * that stops reading.
 */
final class WebSocketPeerChecks
{
    private static final Pattern MESSAGE = Pattern.compile("([0-9]+) ([0-9]+) ([0-9]+) x+");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int SIZE = 250;
    /** The bound of a wait for the peer's counts. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * Messages offered to a stalled client with back-pressure off before it must show no drop: 5 MB, many times
     * what its kernel buffers and a bounded outbox or Netty's write buffer hold (under a megabyte), so a peer
     * that dropped anyway would have by then.
     */
    private static final long QUEUED_AT_LEAST = 20_000;

    private WebSocketPeerChecks()
    {
    }

    /**
     * Feed messages have the right shape, order and times, and echo echoes.
     *
     * @param peer makes the peer from its options.
     * @throws Exception if a check cannot run.
     */
    static void feedAndEcho(final Function<String[], PeerServer> peer) throws Exception
    {
        final PeerServer server = peer.apply(new String[] {"--rate=200", "--size=" + SIZE, "--per-second=false"});
        final long startNanos = System.nanoTime();
        final PeerServer.Serving serving = server.start();
        final int port = serving.port();
        try
        {
            final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            final Collector feed = new Collector();
            final WebSocket feedSocket = client.newWebSocketBuilder().connectTimeout(TIMEOUT)
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/feed"), feed)
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            long lastSequence = -1;
            for (int i = 0; i < 10; i++)
            {
                final String message = feed.next();
                assertThat(message).hasSize(SIZE);
                final Matcher parts = MESSAGE.matcher(message);
                assertThat(parts.matches()).as(message).isTrue();
                final long sequence = Long.parseLong(parts.group(1));
                final long sent = Long.parseLong(parts.group(2));
                assertThat(sequence).isGreaterThan(lastSequence);
                assertThat(sent).isBetween(startNanos, System.nanoTime());
                // Due before it was sent, and never before the client joined.
                assertThat(Long.parseLong(parts.group(3))).isBetween(startNanos, sent);
                lastSequence = sequence;
            }
            feedSocket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

            final Collector echo = new Collector();
            final WebSocket echoSocket = client.newWebSocketBuilder().connectTimeout(TIMEOUT)
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/echo"), echo)
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            echoSocket.sendText("hello, echo", true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(echo.next()).isEqualTo("hello, echo");
            echoSocket.sendText("again", true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(echo.next()).isEqualTo("again");
            echoSocket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

            final String stats = serving.probe().statsLine();
            assertThat(stats).startsWith("stats side=server gc=").contains(" dropped=0 ");
            assertThat(figure(stats, "messages")).isGreaterThanOrEqualTo(10);
        }
        finally
        {
            server.stop();
        }
    }

    /**
     * A client that stops reading has its messages dropped with back-pressure on, and written anyway with it off.
     *
     * @param peer makes the peer from its options.
     * @throws Exception if a check cannot run.
     */
    static void backPressure(final Function<String[], PeerServer> peer) throws Exception
    {
        final PeerServer dropping = peer.apply(new String[] {"--rate=20000", "--size=" + SIZE, "--per-second=false",
            "--backpressure=on"});
        final PeerServer.Serving drops = dropping.start();
        try (Socket stalled = stalledFeedClient(drops.port()))
        {
            final String stats = awaitFigure(drops, "dropped", 1);
            assertThat(figure(stats, "dropped")).as(stats).isPositive();
            assertThat(figure(stats, "messages")).as(stats).isPositive();
        }
        finally
        {
            dropping.stop();
        }

        final PeerServer queueing = peer.apply(new String[] {"--rate=20000", "--size=" + SIZE, "--per-second=false",
            "--backpressure=off"});
        final PeerServer.Serving queues = queueing.start();
        try (Socket stalled = stalledFeedClient(queues.port()))
        {
            // However slowly a loaded machine runs the feed: counted in messages offered, not in time.
            final String stats = awaitFigure(queues, "messages", QUEUED_AT_LEAST);
            assertThat(figure(stats, "dropped")).as(stats).isZero();
            assertThat(figure(stats, "messages")).as(stats).isPositive();
        }
        finally
        {
            queueing.stop();
        }
    }

    static PeerServer configured(final PeerServer server, final String[] args)
    {
        return PeerMain.configure(server, args);
    }

    /**
     * Upgrades to {@code /feed} by hand on a socket with a small receive buffer, then never reads again.
     */
    private static Socket stalledFeedClient(final int port) throws IOException
    {
        final Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port),
            (int)TIMEOUT.toMillis());
        socket.setSoTimeout((int)TIMEOUT.toMillis());
        socket.getOutputStream().write(("GET /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n" +
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        final InputStream in = socket.getInputStream();
        final StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n"))
        {
            final int b = in.read();
            assertThat(b).as("upgrade response so far: " + head).isNotNegative();
            head.append((char)b);
        }
        assertThat(head.toString()).startsWith("HTTP/1.1 101");
        return socket;
    }

    /**
     * Polls the peer's stats until a figure reaches a value, or the wait's bound passes; returns the last line.
     */
    private static String awaitFigure(final PeerServer.Serving serving, final String name, final long atLeast)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        String stats = serving.probe().statsLine();
        while (figure(stats, name) < atLeast && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(100);
            stats = serving.probe().statsLine();
        }
        assertThat(figure(stats, name)).as(name + " within " + WAIT.toSeconds() + " s: " + stats)
            .isGreaterThanOrEqualTo(atLeast);
        return stats;
    }

    private static long figure(final String stats, final String name)
    {
        final Matcher value = Pattern.compile(" " + name + "=([0-9]+)").matcher(stats);
        assertThat(value.find()).as(name + " in " + stats).isTrue();
        return Long.parseLong(value.group(1));
    }

    /**
     * Gathers whole text messages, one at a time.
     */
    private static final class Collector implements WebSocket.Listener
    {
        private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        private final List<CharSequence> parts = new ArrayList<>();

        @Override
        public CompletionStage<?> onText(final WebSocket socket, final CharSequence data, final boolean last)
        {
            parts.add(data.toString());
            if (last)
            {
                messages.add(String.join("", parts));
                parts.clear();
            }
            socket.request(1);
            return null;
        }

        String next() throws InterruptedException
        {
            final String message = messages.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(message).as("a message within " + TIMEOUT.toSeconds() + " s").isNotNull();
            return message;
        }
    }
}
