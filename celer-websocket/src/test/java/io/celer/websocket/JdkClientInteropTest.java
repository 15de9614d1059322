package io.celer.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.JdkWebSocketEvents;
import io.celer.test.Reactors;
import io.celer.websocket.internal.WebSocketSession;

/**
 * The JDK's own WebSocket client, an independent implementation, talks to a server session over loopback: its
 * masked frames, fragments, pings and close handshake against this engine's.
 */
class JdkClientInteropTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void theJdkClientEchoesThroughAServerSessionAndClosesCleanly() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(true);
        final int port = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1"),
            new StubUpgrade(true, () -> WebSocketSession.server(new WebSocketConfig(), server))).open().port();
        final JdkWebSocketEvents collector = new JdkWebSocketEvents();
        final java.net.http.WebSocket client = HttpClient.newHttpClient().newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + port + "/"), collector).get(30, TimeUnit.SECONDS);

        client.sendText("h\u00e9llo \uD83D\uDE00", true).get(30, TimeUnit.SECONDS);
        client.sendText("in ", false).get(30, TimeUnit.SECONDS);
        client.sendText("parts", true).get(30, TimeUnit.SECONDS);
        client.sendBinary(ByteBuffer.allocate(50_000), true).get(30, TimeUnit.SECONDS);
        client.sendPing(ByteBuffer.wrap(new byte[] {'h', 'i'})).get(30, TimeUnit.SECONDS);
        assertThat(collector.next()).isEqualTo("text:h\u00e9llo \uD83D\uDE00");
        assertThat(collector.next()).isEqualTo("text:in parts");
        assertThat(collector.next()).isEqualTo("binary:50000");
        assertThat(collector.next()).isEqualTo("pong:hi");

        client.sendClose(1000, "bye").get(30, TimeUnit.SECONDS);
        assertThat(collector.next()).isEqualTo("close:1000:");
        assertThat(server.next()).isEqualTo("opened");
        assertThat(server.next()).startsWith("text:h");
        assertThat(server.next()).isEqualTo("text:in parts");
        assertThat(server.next()).isEqualTo(RecordingWebSocketHandler.binaryEvent(new byte[50_000]));
        assertThat(server.next()).isEqualTo("ping:hi");
        assertThat(server.next()).isEqualTo("closing:1000:bye");
        assertThat(server.next()).isEqualTo("closed:1000");
    }
}
