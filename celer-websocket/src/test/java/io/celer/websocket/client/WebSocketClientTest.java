package io.celer.websocket.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.counters.Counters;
import io.celer.counters.CountersReader;
import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.TestCertificates;
import io.celer.test.Transports;
import io.celer.tls.TlsConfig;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.RecordingWebSocketHandler;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.deflate.PerMessageDeflate;
import io.celer.websocket.internal.AcceptKey;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * The client against Celer's server over ws:// and wss:// (verifying the certificate), and against scripted
 * servers whose answers break RFC 6455 in one way each.
 */
class WebSocketClientTest
{
    private final Reactors reactors = new Reactors();
    private HttpServer server;
    private WebSocketClient client;

    @AfterEach
    void stop()
    {
        if (client != null)
        {
            client.close();
        }
        if (server != null)
        {
            server.close();
        }
        reactors.close();
    }

    private int serve(final boolean tls)
    {
        final WebSocketUpgrade upgrade = new WebSocketUpgrade(new WebSocketConfig(), new EchoHandler())
            .subprotocols("chat").compression(new PerMessageDeflate(false, false));
        server = new HttpServer(reactors.start("server"), 0, new HttpServerConfig().tcp(new TcpConfig()
            .bindAddress("127.0.0.1").transport(tls ? Transports.TLS.server() : Transports.PLAIN.server())),
            Router.builder().prefix(HttpMethod.GET, "/ws", upgrade).build()).open();
        return server.port();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ws", "wss"})
    void echoesThroughCelersServerWithCompressionAndASubprotocol(final String scheme) throws Exception
    {
        final int port = serve(scheme.equals("wss"));
        final RecordingWebSocketHandler events = new RecordingWebSocketHandler(false);
        final Reactor reactor = reactors.start("client");
        client = new WebSocketClient(reactor, scheme + "://localhost:" + port + "/ws/room?id=1",
            new WebSocketConfig(), events)
            .tls(new TlsConfig().trustStore(TestCertificates.get().trustStore(), TestCertificates.PASSWORD))
            .subprotocols("other", "chat").compression(new PerMessageDeflate(false, false))
            .header("Origin", "http://localhost").open();
        assertThat(events.next()).isEqualTo("opened");
        assertThat(client.failure()).isNull();
        assertThat(client.subprotocol()).isEqualTo("chat");
        // Set before the session opened, which the recorder's queue has shown this thread.
        assertThat(client.socket().subprotocol()).isEqualTo("chat");
        assertThat(client.socket().path()).isEqualTo("/ws/room");
        assertThat(client.compression()).isNotNull();
        reactor.call(() -> client.socket().sendText("h\u00e9llo " + "x".repeat(1000)));
        assertThat(events.next()).isEqualTo("text:h\u00e9llo " + "x".repeat(1000));
        reactor.call(() -> client.socket().sendBinary(ByteBuffer.allocate(40_000)));
        assertThat(events.next()).isEqualTo(RecordingWebSocketHandler.binaryEvent(new byte[40_000]));
        reactor.call(() ->
        {
            client.socket().sendTextFragment("frag", false);
            client.socket().sendTextFragment("ment", true);
        });
        assertThat(events.next()).isEqualTo("text:fragment");
        reactor.call(() -> client.socket().close(1000, "done"));
        assertThat(events.next()).startsWith("closing:1000:");
        assertThat(events.next()).isEqualTo("closed:1000");
        // Whole messages, each way, at both sessions; the close frame is none.
        final CountersReader counters = Counters.process().reader();
        for (final String side : new String[] {"server", "client"})
        {
            // Batched totals: written when the reactor next flushes its counters.
            Await.until(side + " messages in", () -> counters.sum(side, "ws.messages.in", "") == 3);
            Await.until(side + " messages out", () -> counters.sum(side, "ws.messages.out", "") == 3);
        }
    }

    @Test
    void aServerCertificateThatIsNotTrustedFailsTheConnection() throws Exception
    {
        final int port = serve(true);
        final RecordingWebSocketHandler events = new RecordingWebSocketHandler(false);
        client = new WebSocketClient(reactors.start("client"), "wss://localhost:" + port + "/ws",
            new WebSocketConfig(), events).open(); // the JDK's trust store does not know the test CA
        assertThat(events.next()).isEqualTo("closed:1006");
        assertThat(client.isUpgraded()).isFalse();
        assertThat(client.failure()).isNotNull();
    }

    @Test
    void aRefusedUpgradeFailsWithTheStatus() throws Exception
    {
        final int port = serve(false);
        final RecordingWebSocketHandler events = new RecordingWebSocketHandler(false);
        client = new WebSocketClient(reactors.start("client"), "ws://127.0.0.1:" + port + "/elsewhere",
            new WebSocketConfig(), events).open();
        assertThat(events.next()).isEqualTo("closed:1006");
        assertThat(client.failure()).contains("404");
    }

    @Test
    void framesThatFollowTheAnswerInTheSameSegmentAreRead() throws Exception
    {
        final String received = scripted(key -> ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" +
            "Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept(key) + "\r\n\r\n\u0081\u0005early"), "opened",
            "text:early");
        assertThat(received).isNull();
    }

    @Test
    void aWrongAcceptFailsTheHandshake() throws Exception
    {
        assertThat(scripted(key -> "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade" +
            "\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n", "closed:1006")).contains("Accept");
    }

    @Test
    void anAnswerWithoutUpgradeOrConnectionFailsTheHandshake() throws Exception
    {
        assertThat(scripted(key -> "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Accept: " + accept(key) + "\r\n\r\n", "closed:1006")).contains("Upgrade");
        assertThat(scripted(key -> "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" +
            "Sec-WebSocket-Accept: " + accept(key) + "\r\n\r\n", "closed:1006")).contains("Connection");
    }

    @Test
    void anExtensionOrSubprotocolNotOfferedFailsTheHandshake() throws Exception
    {
        assertThat(scripted(key -> "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade" +
            "\r\nSec-WebSocket-Accept: " + accept(key) + "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n",
            "closed:1006")).contains("extensions");
        assertThat(scripted(key -> "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade" +
            "\r\nSec-WebSocket-Accept: " + accept(key) + "\r\nSec-WebSocket-Protocol: chat\r\n\r\n",
            "closed:1006")).contains("subprotocol");
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception
    {
        // Short, as waiting is all the test does: on loopback the connect completes at once, so only the unanswered
        // handshake can use the time up.
        assertThat(scripted(500, key -> "", "closed:1006")).contains("no answer");
    }

    @Test
    void onlyWebSocketUrlsAreAccepted()
    {
        assertThatThrownBy(() -> new WebSocketClient(reactors.start("client"), "http://localhost/",
            new WebSocketConfig(), new RecordingWebSocketHandler(false))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WebSocketClient(reactors.start("client2"), "ws://localhost/#frag",
            new WebSocketConfig(), new RecordingWebSocketHandler(false))).isInstanceOf(IllegalArgumentException.class);
    }

    private static String accept(final String key)
    {
        final ByteBuffer out = ByteBuffer.allocate(AcceptKey.LENGTH);
        new AcceptKey().write(key, out);
        return new String(out.array(), StandardCharsets.US_ASCII);
    }

    /**
     * Runs the client against a one-shot server that answers the request's key as the script says; checks the
     * events and returns the client's failure. The handshake may take 30 s: a server that answers is not outrun
     * by the timeout, however slowly a loaded machine runs its thread.
     */
    private String scripted(final java.util.function.Function<String, String> answer, final String... expected)
        throws Exception
    {
        return scripted(30_000, answer, expected);
    }

    /**
     * Runs the client, with the given handshake timeout, against a one-shot server that answers the request's key
     * as the script says; checks the events and returns the client's failure.
     */
    private String scripted(final long handshakeTimeoutMillis, final java.util.function.Function<String, String> answer,
        final String... expected) throws Exception
    {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final Thread peer = new Thread(() ->
            {
                try (Socket socket = listener.accept())
                {
                    final InputStream in = socket.getInputStream();
                    final String head = StubUpgrade.readHead(in);
                    if (!head.endsWith("\r\n\r\n"))
                    {
                        return;
                    }
                    final Matcher key = Pattern.compile("Sec-WebSocket-Key: (\\S+)").matcher(head);
                    assertThat(key.find()).isTrue();
                    socket.getOutputStream().write(answer.apply(key.group(1)).getBytes(StandardCharsets.ISO_8859_1));
                    socket.getOutputStream().flush();
                    in.read(); // until the client hangs up
                }
                catch (final IOException ignored)
                {
                    // the client hung up
                }
            }, "scripted-server");
            peer.start();
            final RecordingWebSocketHandler events = new RecordingWebSocketHandler(false);
            final WebSocketClient scriptedClient = new WebSocketClient(reactors.start("client-" + System.nanoTime()),
                "ws://127.0.0.1:" + listener.getLocalPort() + "/", new WebSocketConfig(), events)
                .compression(null).handshakeTimeoutMillis(handshakeTimeoutMillis).open();
            for (final String event : expected)
            {
                assertThat(events.next()).isEqualTo(event);
            }
            scriptedClient.close();
            peer.join(10_000);
            return scriptedClient.failure();
        }
    }
}
