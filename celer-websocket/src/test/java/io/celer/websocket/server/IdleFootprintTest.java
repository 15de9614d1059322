package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.LiveHeap;
import io.celer.test.Reactors;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;

/**
 * What an idle WebSocket connection keeps of Celer's on the server's heap, counted by class in the JVM's
 * histogram after the upgrade and one echoed message: its TCP connection, its session and the parts every
 * message passes through, and none of what only some messages need (a message's reassembly, a text's
 * validation across frames, a close's state), nor a frame decoder, lent only while a frame or message is in parts.
 */
class IdleFootprintTest
{
    private static final int CONNECTIONS = 400;
    /**
     * Celer's bytes per idle WebSocket connection at most, the native transports' objects included, by the
     * transport the run uses ({@code -Dceler.transport}): about 280 on NIO, 345 on epoll and 395 on io_uring as
     * measured on JDK 25 with compressed pointers. Each bound has room for a JDK whose object layout differs, not
     * for a part made per connection that an idle one does not use.
     */
    private static final Map<String, Long> MAX_BYTES_PER_CONNECTION = Map.of("nio", 304L, "epoll", 384L,
        "uring", 432L);
    private static final String TRANSPORT = System.getProperty("celer.transport", "nio");

    private final Reactors reactors = new Reactors();
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

    @Test
    void anIdleWebSocketKeepsOnlyWhatEveryMessageUses() throws Exception
    {
        server = new HttpServer(reactors.start("ws-idle"), 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            new WebSocketUpgrade(new WebSocketConfig(), new EchoHandler())).open();
        final List<Socket> clients = new ArrayList<>();
        try
        {
            upgradeAndEcho(clients, 20); // loads and compiles what a connection's upgrade and first message need
            final Map<String, Long> before = LiveHeap.bytesByClass("io.celer.");
            upgradeAndEcho(clients, CONNECTIONS);
            Await.until("every connection open on the server", () -> server.connectionCount() == clients.size());
            final Map<String, Long> perConnection =
                LiveHeap.growthPer(before, LiveHeap.bytesByClass("io.celer."), CONNECTIONS);
            final long total = perConnection.values().stream().mapToLong(Long::longValue).sum();
            System.out.printf("an idle WebSocket keeps %d bytes of Celer's objects: %s%n", total, perConnection);

            assertThat(perConnection).as("parts of messages and closes, made when one needs them")
                .doesNotContainKeys("io.celer.websocket.internal.MessageAssembler",
                    "io.celer.websocket.internal.Utf8Validator", "io.celer.websocket.internal.CloseHandshake",
                    "io.celer.websocket.internal.FrameDecoder");
            assertThat(total).as("Celer's bytes per idle WebSocket on %s: %s", TRANSPORT, perConnection)
                .isLessThanOrEqualTo(MAX_BYTES_PER_CONNECTION.get(TRANSPORT));
        }
        finally
        {
            for (final Socket client : clients)
            {
                client.close();
            }
        }
        Await.until("every connection closed", () -> server.connectionCount() == 0);
    }

    /**
     * Opens connections one after the other, each upgraded to /echo with one text echoed, and keeps them open.
     */
    private void upgradeAndEcho(final List<Socket> clients, final int count) throws IOException
    {
        final byte[] frame = WebSocketUpgradeTest.maskedFrame(1, "ping".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < count; i++)
        {
            final Socket client = new Socket("127.0.0.1", server.port());
            clients.add(client);
            client.setSoTimeout(30_000);
            client.getOutputStream().write(WebSocketUpgradeTest.request("/echo").getBytes(StandardCharsets.US_ASCII));
            assertThat(StubUpgrade.readHead(client.getInputStream())).startsWith("HTTP/1.1 101 ");
            client.getOutputStream().write(frame);
            assertThat(new String(WebSocketUpgradeTest.readFrame(client.getInputStream()), StandardCharsets.UTF_8))
                .endsWith("ping");
        }
    }
}
