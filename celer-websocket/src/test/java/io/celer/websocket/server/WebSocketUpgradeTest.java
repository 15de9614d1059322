package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.tcp.TcpConfig;
import io.celer.test.Reactors;
import io.celer.test.Transports;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.deflate.PerMessageDeflate;

/**
 * The server's opening handshake over real sockets, plain and TLS: a client whose first frame rides in the same
 * write as its upgrade request gets it echoed; bad requests get 400, other versions 426, refused origins 403.
 */
class WebSocketUpgradeTest
{
    static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

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

    private int serve(final Transports transport)
    {
        final WebSocketUpgrade upgrade = new WebSocketUpgrade(new WebSocketConfig(), new EchoHandler())
            .originCheck(OriginCheck.allowing("https://good.example"))
            .subprotocols("chat.v2", "chat.v1")
            .compression(new PerMessageDeflate(false, false))
            .otherwise((req, res) -> res.header("Content-Type", "text/plain").body("a page"));
        final Router routes = Router.builder().prefix(HttpMethod.GET, "/ws", upgrade)
            .get("/", (req, res) -> res.body("root")).build();
        server = new HttpServer(reactors.start("ws-upgrade"), 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1").transport(transport.server())),
            routes).open();
        return server.port();
    }

    static String request(final String path, final String... extra)
    {
        final StringBuilder head = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        boolean version = false;
        boolean key = false;
        for (final String field : extra)
        {
            version |= field.startsWith("Sec-WebSocket-Version");
            key |= field.startsWith("Sec-WebSocket-Key");
        }
        head.append("Upgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\n");
        if (!key)
        {
            head.append("Sec-WebSocket-Key: ").append(KEY).append("\r\n");
        }
        if (!version)
        {
            head.append("Sec-WebSocket-Version: 13\r\n");
        }
        for (final String field : extra)
        {
            head.append(field).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    /** A masked frame, as a client sends it. */
    static byte[] maskedFrame(final int opcode, final byte[] payload)
    {
        return StubUpgrade.maskedFrame(true, opcode, payload);
    }

    /** Reads one unmasked frame; returns opcode then payload. */
    static byte[] readFrame(final InputStream in) throws IOException
    {
        final int first = in.read();
        int length = in.read();
        assertThat(length & 0x80).as("server frames are not masked").isZero();
        if (length == 126)
        {
            length = in.read() << 8 | in.read();
        }
        final byte[] frame = new byte[length + 1];
        frame[0] = (byte)(first & 0x0F);
        int at = 1;
        while (at < frame.length)
        {
            final int n = in.read(frame, at, frame.length - at);
            assertThat(n).isPositive();
            at += n;
        }
        return frame;
    }

    private static Socket connect(final Transports transport, final int port) throws IOException
    {
        final Socket socket = transport.connect("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
        return socket;
    }

    @ParameterizedTest
    @EnumSource(Transports.class)
    void aFrameSentWithTheUpgradeRequestIsNotLost(final Transports transport) throws IOException
    {
        final int port = serve(transport);
        try (Socket socket = connect(transport, port))
        {
            final byte[] head = request("/ws/chat").getBytes(StandardCharsets.US_ASCII);
            final byte[] frame = maskedFrame(1, "h\u00e9llo".getBytes(StandardCharsets.UTF_8));
            final byte[] both = new byte[head.length + frame.length];
            System.arraycopy(head, 0, both, 0, head.length);
            System.arraycopy(frame, 0, both, head.length, frame.length);
            final OutputStream out = socket.getOutputStream();
            out.write(both); // one write: request and first frame in one segment (one TLS record over TLS)
            out.flush();
            final InputStream in = socket.getInputStream();
            final String response = StubUpgrade.readHead(in);
            assertThat(response).startsWith("HTTP/1.1 101 ").containsIgnoringCase("Upgrade: websocket\r\n")
                .containsIgnoringCase("Connection: Upgrade\r\n").contains("Sec-WebSocket-Accept: " + ACCEPT + "\r\n")
                .doesNotContain("Sec-WebSocket-Protocol").doesNotContain("Sec-WebSocket-Extensions")
                .doesNotContainIgnoringCase("Content-Length");
            final byte[] echo = readFrame(in);
            assertThat(echo[0]).isEqualTo((byte)1);
            assertThat(new String(echo, 1, echo.length - 1, StandardCharsets.UTF_8)).isEqualTo("h\u00e9llo");

            out.write(maskedFrame(8, new byte[] {0x03, (byte)0xE8}));
            out.flush();
            final byte[] close = readFrame(in);
            assertThat(close).containsExactly(8, 0x03, (byte)0xE8);
            assertThat(in.read()).as("the server closes TCP after the close handshake").isEqualTo(-1);
        }
    }

    @Test
    void aDefaultConfiguredServerClosesWith1009OnAMessageOverItsLimit() throws IOException
    {
        final int limit = new WebSocketConfig().maxMessageLength();
        server = new HttpServer(reactors.start("ws-default"), 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            new WebSocketUpgrade(new WebSocketConfig(), new EchoHandler())).open();
        try (Socket socket = connect(Transports.PLAIN, server.port()))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(request("/").getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            assertThat(StubUpgrade.readHead(in)).startsWith("HTTP/1.1 101 ");
            // Two fragments, each within the limit, that together pass it by one byte: 1009 once the second
            // fragment's header says so, before its payload is read.
            final long half = limit / 2;
            out.write(new byte[] {0x02, (byte)0xFF, 0, 0, 0, 0, (byte)(half >>> 24), (byte)(half >>> 16),
                (byte)(half >>> 8), (byte)half, 0, 0, 0, 0});
            out.write(new byte[(int)half]);
            final long rest = limit - half + 1;
            out.write(new byte[] {(byte)0x80, (byte)0xFF, 0, 0, 0, 0, (byte)(rest >>> 24), (byte)(rest >>> 16),
                (byte)(rest >>> 8), (byte)rest, 0, 0, 0, 0});
            out.flush();
            final byte[] close = readFrame(in);
            assertThat(close).startsWith(8, 0x03, (byte)0xF1);
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void anotherVersionGets426NamingVersion13() throws IOException
    {
        final String response = exchange(request("/ws", "Sec-WebSocket-Version: 8"));
        assertThat(response).startsWith("HTTP/1.1 426 ").contains("Sec-WebSocket-Version: 13\r\n");
    }

    @Test
    void badKeysGet400() throws IOException
    {
        assertThat(exchange(request("/ws", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ"))).startsWith("HTTP/1.1 400 ");
        assertThat(exchange(request("/ws", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25j"))).startsWith("HTTP/1.1 400 ");
        assertThat(exchange(request("/ws", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25j!Q=="))).startsWith("HTTP/1.1 400 ");
        assertThat(exchange(request("/ws", "Sec-WebSocket-Key: " + KEY, "Sec-WebSocket-Key: " + KEY)))
            .startsWith("HTTP/1.1 400 ");
    }

    @Test
    void requestsThatAreNotUpgradesGet400() throws IOException
    {
        assertThat(exchange("POST /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\nContent-Length: 0\r\n\r\n"))
            .startsWith("HTTP/1.1 ").doesNotStartWith("HTTP/1.1 101");
        assertThat(exchange("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: keep-alive\r\n" +
            "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        assertThat(exchange("GET /ws HTTP/1.0\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        assertThat(exchange("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"))
            .startsWith("HTTP/1.1 200 ").endsWith("a page");
        assertThat(exchange(request("/ws", "Sec-WebSocket-Version: 13"))).startsWith("HTTP/1.1 101 ");
    }

    @Test
    void aRefusedOriginGets403() throws IOException
    {
        assertThat(exchange(request("/ws", "Origin: https://evil.example"))).startsWith("HTTP/1.1 403 ");
        assertThat(exchange(request("/ws", "Origin: https://GOOD.example"))).startsWith("HTTP/1.1 101 ");
    }

    @Test
    void negotiatesASubprotocolAndPermessageDeflate() throws IOException
    {
        final String response = exchange(request("/ws", "Sec-WebSocket-Protocol: chat.v0, chat.v1",
            "Sec-WebSocket-Protocol: chat.v2", "Sec-WebSocket-Extensions: x-unknown, permessage-deflate; " +
            "client_max_window_bits"));
        assertThat(response).startsWith("HTTP/1.1 101 ").contains("Sec-WebSocket-Protocol: chat.v2\r\n")
            .contains("Sec-WebSocket-Extensions: permessage-deflate\r\n");
        final String declined = exchange(request("/ws", "Sec-WebSocket-Protocol: other",
            "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=16"));
        assertThat(declined).startsWith("HTTP/1.1 101 ").doesNotContain("Sec-WebSocket-Protocol")
            .doesNotContain("Sec-WebSocket-Extensions");
    }

    @Test
    void theHandlerReadsThePathAndTheSubprotocolTheHandshakeSettled() throws IOException
    {
        final WebSocketHandler tellsWhatItWasOpenedWith = new WebSocketHandler()
        {
            @Override
            public void opened(final WebSocket socket)
            {
                socket.sendText(socket.path() + " " + socket.subprotocol());
            }
        };
        final WebSocketUpgrade upgrade = new WebSocketUpgrade(new WebSocketConfig(), tellsWhatItWasOpenedWith)
            .subprotocols("chat.v2", "chat.v1");
        server = new HttpServer(reactors.start("ws-opened"), 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            Router.builder().prefix(HttpMethod.GET, "/ws", upgrade).build()).open();
        assertThat(openedWith(request("/ws/room/7?user=a", "Sec-WebSocket-Protocol: chat.v1")))
            .isEqualTo("/ws/room/7 chat.v1");
        assertThat(openedWith(request("/ws"))).isEqualTo("/ws null");
    }

    /** Upgrades, then returns the text of the server's first frame. */
    private String openedWith(final String request) throws IOException
    {
        try (Socket socket = connect(Transports.PLAIN, server.port()))
        {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            assertThat(StubUpgrade.readHead(in)).startsWith("HTTP/1.1 101 ");
            final byte[] frame = readFrame(in);
            assertThat(frame[0]).as("a text frame").isEqualTo((byte)1);
            return new String(frame, 1, frame.length - 1, StandardCharsets.UTF_8);
        }
    }

    /** Sends a request, returns the response head and, for a 200 with a short body, the body. */
    private String exchange(final String request) throws IOException
    {
        final int port = server == null ? serve(Transports.PLAIN) : server.port();
        try (Socket socket = connect(Transports.PLAIN, port))
        {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            final String head = StubUpgrade.readHead(in);
            final int at = head.indexOf("Content-Length: ");
            if (at < 0)
            {
                return head;
            }
            final int length = Integer.parseInt(head.substring(at + 16, head.indexOf('\r', at)));
            return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
        }
    }
}
