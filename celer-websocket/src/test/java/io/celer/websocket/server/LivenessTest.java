package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.tcp.TcpConfig;
import io.celer.test.JdkWebSocketEvents;
import io.celer.test.Reactors;
import io.celer.websocket.CloseCode;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * A peer that goes silent is asked with a ping and, silent again, failed with 1006; a peer that answers pings stays
 * connected however long it has nothing to say.
 */
class LivenessTest
{
    private final Reactors reactors = new Reactors();
    private final BlockingQueue<Integer> closes = new LinkedBlockingQueue<>();
    private HttpServer server;

    @AfterEach
    void stop()
    {
        if (server != null)
        {
            server.close();
        }
        reactors.close();
    }

    private int serve(final long pingIntervalMillis)
    {
        final WebSocketUpgrade upgrade = new WebSocketUpgrade(
            new WebSocketConfig().pingIntervalMillis(pingIntervalMillis), new WebSocketHandler()
            {
                @Override
                public void closed(final WebSocket socket, final int code)
                {
                    closes.add(code);
                }
            });
        server = new HttpServer(reactors.start("ws-liveness"), 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            Router.builder().prefix(HttpMethod.GET, "/ws", upgrade).build()).open();
        return server.port();
    }

    @Test
    void aSilentPeerIsPingedThenFailed() throws Exception
    {
        final int port = serve(200);
        try (Socket peer = new Socket("127.0.0.1", port))
        {
            peer.setSoTimeout(30_000);
            peer.getOutputStream().write(WebSocketUpgradeTest.request("/ws").getBytes(StandardCharsets.US_ASCII));
            final InputStream in = peer.getInputStream();
            StubUpgrade.skipHead(in);
            final long start = System.nanoTime();
            final byte[] ping = WebSocketUpgradeTest.readFrame(in);
            assertThat(ping[0]).as("a ping after the silence").isEqualTo((byte)0x9);
            // Not answered: the connection goes, without a close frame, after a second silence.
            assertThat(in.read()).as("closed").isEqualTo(-1);
            assertThat((System.nanoTime() - start) / 1_000_000).as("ms until closed").isGreaterThanOrEqualTo(150);
            assertThat(closes.poll(30, TimeUnit.SECONDS)).isEqualTo(CloseCode.ABNORMAL);
        }
    }

    @Test
    void aPeerThatAnswersPingsStays() throws Exception
    {
        final int port = serve(200);
        final JdkWebSocketEvents events = new JdkWebSocketEvents();
        final java.net.http.WebSocket client = HttpClient.newHttpClient().newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws"), events).get(30, TimeUnit.SECONDS);
        try
        {
            Thread.sleep(1_500); // seven ping intervals with nothing to say: a negative check
            assertThat(closes).as("still open").isEmpty();
            assertThat(client.isInputClosed()).isFalse();
        }
        finally
        {
            client.abort();
        }
    }

    @Test
    void aNegativeIntervalIsRefused()
    {
        assertThatThrownBy(() -> new WebSocketConfig().pingIntervalMillis(-1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pingIntervalMillis");
    }
}
