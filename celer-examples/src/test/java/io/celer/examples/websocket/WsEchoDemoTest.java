package io.celer.examples.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.JdkWebSocketEvents;
import io.celer.test.Reactors;
import io.celer.test.TestCertificates;
import io.celer.tls.TlsConfig;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.deflate.PerMessageDeflate;

/**
 * {@code ./celer demo ws-echo} over real sockets: echoes small and multi-megabyte messages (more than its write
 * buffer, so sent back in fragments as the client reads) to Celer's client with permessage-deflate and to the
 * JDK's, plain and over TLS, and serves its page at {@code /}.
 */
class WsEchoDemoTest
{
    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);
    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** Collects what a Celer client hears. */
    private static final class Heard implements WebSocketHandler
    {
        final BlockingQueue<Object> events = new LinkedBlockingQueue<>();

        @Override
        public void opened(final WebSocket socket)
        {
            events.add("opened");
        }

        @Override
        public void text(final WebSocket socket, final Utf8Text message)
        {
            events.add(message.toString());
        }

        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            final byte[] bytes = new byte[message.remaining()];
            message.get(bytes);
            events.add(bytes);
        }

        @Override
        public void closed(final WebSocket socket, final int code)
        {
            events.add("closed:" + code);
        }

        Object next() throws InterruptedException
        {
            final Object event = events.poll(60, TimeUnit.SECONDS);
            assertThat(event).as("an event within 60 s").isNotNull();
            return event;
        }
    }

    private void echoesThroughCelersClient(final String url, final TlsConfig tls) throws Exception
    {
        final Heard heard = new Heard();
        final Reactor reactor = reactors.start("ws-client");
        final WebSocketClient client = new WebSocketClient(reactor, url, new WebSocketConfig(), heard)
            .tcp(new TcpConfig().writeBufferSize(4 * 1024 * 1024)).compression(new PerMessageDeflate(false, false));
        if (tls != null)
        {
            client.tls(tls);
        }
        client.open();
        assertThat(heard.next()).isEqualTo("opened");
        assertThat(client.compression()).as("permessage-deflate agreed").isNotNull();
        reactor.call(() -> client.socket().sendText("h\u00e9llo \uD83D\uDE00"));
        assertThat(heard.next()).isEqualTo("h\u00e9llo \uD83D\uDE00");
        final byte[] big = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(big);
        // Many times the server's 64 KiB write buffer: echoed in fragments as this client reads them.
        reactor.call(() -> client.socket().sendBinary(ByteBuffer.wrap(big)));
        assertThat((byte[])heard.next()).isEqualTo(big);
        reactor.call(() -> client.socket().sendBinary(ByteBuffer.wrap(big, 0, 1000)));
        assertThat((byte[])heard.next()).hasSize(1000);
        reactor.call(() -> client.socket().close(1000, ""));
        assertThat(heard.next()).isEqualTo("closed:1000");
    }

    @Test
    void echoesSmallAndLargeMessagesWithDeflate() throws Exception
    {
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0");
        echoesThroughCelersClient("ws://127.0.0.1:" + echo.port() + "/any/path", null);
        assertThat(demos.out()).contains("ws-echo: listening on 127.0.0.1:");
    }

    @Test
    void echoesOverTls() throws Exception
    {
        final TestCertificates certificates = TestCertificates.get();
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0", "--tls", "--keystore",
            certificates.server().toString(), "--storepass", TestCertificates.PASSWORD);
        echoesThroughCelersClient("wss://localhost:" + echo.port() + "/",
            new TlsConfig().trustStore(certificates.trustStore(), TestCertificates.PASSWORD));
    }

    @Test
    void echoesToTheJdkClientAndServesThePage() throws Exception
    {
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0");
        final HttpClient http = HttpClient.newHttpClient();
        final HttpResponse<String> page = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + echo.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("new WebSocket(").contains("selftest");
        assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + echo.port() + "/nothing"))
            .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);

        final JdkWebSocketEvents heard = new JdkWebSocketEvents();
        final java.net.http.WebSocket socket = http.newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + echo.port() + "/echo"), heard).get(30, TimeUnit.SECONDS);
        final String text = "\u20ac".repeat(400_000); // 1.2 MB of UTF-8: echoed in fragments
        socket.sendText(text, true).get(30, TimeUnit.SECONDS);
        socket.sendBinary(ByteBuffer.wrap("VERDICT ok 3".getBytes(StandardCharsets.US_ASCII)), true)
            .get(30, TimeUnit.SECONDS);
        socket.sendText("VERDICT ok 3", true).get(30, TimeUnit.SECONDS);
        assertThat(heard.next()).isEqualTo("text:" + text);
        assertThat(heard.next()).isEqualTo("binary:12");
        assertThat(heard.next()).isEqualTo("text:VERDICT ok 3");
        socket.sendClose(1000, "").get(30, TimeUnit.SECONDS);
        assertThat(demos.out()).contains("ws-echo: self-test VERDICT ok 3\n");
        assertThat(demos.out()).containsOnlyOnce("self-test");
    }
}
