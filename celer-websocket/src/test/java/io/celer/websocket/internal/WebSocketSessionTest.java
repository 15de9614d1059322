package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Reactors;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.RecordingWebSocketHandler;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * A server and a client session talk over real loopback TCP connections (Celer's server and client, raw framing,
 * a stand-in handshake); a raw socket plays a broken peer to see each protocol error answered with its code.
 */
class WebSocketSessionTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();
    private Reactor serverReactor;
    private Reactor clientReactor;

    private int serve(final WebSocketConfig config, final Supplier<WebSocketHandler> handlers, final int readBuffer)
    {
        serverReactor = reactors.start("server");
        final TcpConfig tcp = new TcpConfig().bindAddress("127.0.0.1").readBufferSize(readBuffer);
        return new TcpServer(serverReactor, 0, tcp,
            new StubUpgrade(true, () -> WebSocketSession.server(config, handlers.get()))).open().port();
    }

    private void connect(final int port, final WebSocketConfig config, final WebSocketHandler handler)
    {
        clientReactor = reactors.start("client");
        new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig(),
            new StubUpgrade(false, () -> WebSocketSession.client(config, handler))).open();
    }

    @Test
    void echoesTextBinaryFragmentsAndPingsThenClosesCleanly() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(true);
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false);
        connect(serve(new WebSocketConfig().initialMessageBufferSize(16), () -> server, 1024), new WebSocketConfig(),
            client);
        assertThat(server.next()).isEqualTo("opened");
        assertThat(client.next()).isEqualTo("opened");

        final byte[] big = new byte[40_000];
        for (int i = 0; i < big.length; i++)
        {
            big[i] = (byte)(i * 7);
        }
        clientReactor.call(() ->
        {
            final WebSocket socket = client.socket;
            socket.sendText("h\u00e9llo \uD83D\uDE00");
            socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            socket.sendBinary(ByteBuffer.wrap(big));
            socket.sendTextFragment("frag", false);
            socket.ping(ByteBuffer.wrap("p1".getBytes(StandardCharsets.US_ASCII)));
            socket.sendTextFragment("ment", false);
            socket.sendFragment(ByteBuffer.wrap("ed".getBytes(StandardCharsets.US_ASCII)), true, true);
            socket.sendText("");
        });
        final String bigEvent = RecordingWebSocketHandler.binaryEvent(big);
        for (final RecordingWebSocketHandler side : new RecordingWebSocketHandler[] {server, client})
        {
            assertThat(side.next()).isEqualTo("text:h\u00e9llo \uD83D\uDE00");
            assertThat(side.next()).isEqualTo("binary:010203");
            assertThat(side.next()).isEqualTo(bigEvent);
            if (side == server)
            {
                assertThat(side.next()).isEqualTo("ping:p1");
            }
            else
            {
                assertThat(side.next()).isEqualTo("pong:p1");
            }
            assertThat(side.next()).isEqualTo("text:fragmented");
            assertThat(side.next()).isEqualTo("text:");
        }

        clientReactor.call(() -> assertThat(client.socket.close(1000, "done")).isTrue());
        assertThat(server.next()).isEqualTo("closing:1000:done");
        assertThat(client.next()).isEqualTo("closing:1000:");
        assertThat(server.next()).isEqualTo("closed:1000");
        assertThat(client.next()).isEqualTo("closed:1000");
        clientReactor.call(() -> assertThat(client.socket.sendText("late")).isFalse());
    }

    @Test
    void serverInitiatedCloseWithAReasonIsEchoed() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(false);
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false);
        connect(serve(new WebSocketConfig(), () -> server, 1024), new WebSocketConfig(), client);
        assertThat(server.next()).isEqualTo("opened");
        assertThat(client.next()).isEqualTo("opened");
        serverReactor.call(() -> server.socket.close(4000, "b\u00fce"));
        assertThat(client.next()).isEqualTo("closing:4000:b\u00fce");
        assertThat(server.next()).isEqualTo("closing:4000:");
        assertThat(client.next()).isEqualTo("closed:4000");
        assertThat(server.next()).isEqualTo("closed:4000");
    }

    @Test
    void streamsAMessageLargerThanTheReadBufferAndTheMessageLimit() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(false);
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false);
        final WebSocketConfig streaming = new WebSocketConfig().streamFragments(true).maxMessageLength(1 << 20);
        connect(serve(streaming, () -> server, 512), new WebSocketConfig(), client);
        assertThat(server.next()).isEqualTo("opened");
        assertThat(client.next()).isEqualTo("opened");
        final String part = "x".repeat(30_000);
        clientReactor.call(() ->
        {
            for (int i = 0; i < 10; i++)
            {
                client.socket.sendTextFragment(part, i == 9);
                client.socket.flush();
            }
        });
        assertThat(server.next()).isEqualTo("streamed:text:300000 bytes " + part.repeat(10).hashCode());
    }

    @ParameterizedTest(name = "compressed: {0}")
    @ValueSource(booleans = {false, true})
    void aMessageLargerThanTheWriteBufferGoesOutInFragmentsAsTheSocketDrains(final boolean compressed)
        throws Exception
    {
        final DeflateParameters agreed = new DeflateParameters(false, false, 0, 0);
        final byte[] big = new byte[4 << 20];
        new java.util.SplittableRandom(3).nextBytes(big);
        final ByteBuffer source = ByteBuffer.wrap(big);
        final java.util.concurrent.atomic.AtomicInteger sendsRefused = new java.util.concurrent.atomic.AtomicInteger();
        final WebSocketHandler sender = new WebSocketHandler()
        {
            @Override
            public void opened(final WebSocket socket)
            {
                writable(socket, 0);
            }

            @Override
            public void writable(final WebSocket socket, final int freeBytes)
            {
                while (source.hasRemaining())
                {
                    final int at = source.position();
                    final ByteBuffer part = source.duplicate().limit(Math.min(at + 16_384, big.length));
                    if (!socket.sendFragment(part, false, part.limit() == big.length))
                    {
                        sendsRefused.incrementAndGet();
                        return; // the write buffer is full: wait for writable
                    }
                    source.position(part.limit());
                }
            }
        };
        serverReactor = reactors.start("server");
        final TcpConfig tcp = new TcpConfig().bindAddress("127.0.0.1").disconnectOnFullWriteBuffer(false)
            .socketSendBufferSize(32 * 1024);
        final int port = new TcpServer(serverReactor, 0, tcp,
            new StubUpgrade(true, () -> compressed ? WebSocketSession.server(new WebSocketConfig(), sender)
                .compression(agreed) : WebSocketSession.server(new WebSocketConfig(), sender))).open().port();
        // The client reads nothing until the server's write buffer has refused a fragment: whatever the timing,
        // the refusal and the retry from writable() are both exercised.
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false)
        {
            @Override
            public void opened(final WebSocket socket)
            {
                socket.connection().pauseReads();
                super.opened(socket);
            }
        };
        clientReactor = reactors.start("client");
        final WebSocketConfig limit = new WebSocketConfig().maxMessageLength(8 << 20);
        new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig().socketReceiveBufferSize(32 * 1024),
            new StubUpgrade(false, () -> compressed ? WebSocketSession.client(limit, client).compression(agreed) :
                WebSocketSession.client(limit, client))).open();
        assertThat(client.next()).isEqualTo("opened");
        final long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (sendsRefused.get() == 0 && System.nanoTime() < giveUp)
        {
            Thread.sleep(1);
        }
        assertThat(sendsRefused.get()).as("the write buffer filled").isPositive();
        clientReactor.call(() -> client.socket.connection().resumeReads());
        assertThat(client.next()).isEqualTo(RecordingWebSocketHandler.binaryEvent(big));
    }

    static Stream<Arguments> brokenFrames()
    {
        return Stream.of(
            Arguments.of("unmasked", "8100", 1002),
            Arguments.of("reserved opcode", "8380 00000000", 1002),
            Arguments.of("invalid UTF-8", "8181 00000000 ff", 1007),
            Arguments.of("UTF-8 cut short at the end", "8181 00000000 ce", 1007),
            Arguments.of("message over the limit", "82fe 0401 00000000" + "00".repeat(1025), 1009),
            Arguments.of("close code 1005", "8882 00000000 03ed", 1002),
            Arguments.of("1-byte close", "8881 00000000 03", 1002),
            Arguments.of("close reason not UTF-8", "8883 00000000 03e8 ff", 1007),
            Arguments.of("continuation first", "8080 00000000", 1002));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenFrames")
    void aBrokenPeerGetsACloseFrameWithTheCodeAndIsDisconnected(final String name, final String frames,
        final int code) throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(false);
        final int port = serve(new WebSocketConfig().maxMessageLength(1024), () -> server, 4096);
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(30_000);
            final OutputStream out = socket.getOutputStream();
            out.write(StubUpgrade.REQUEST.getBytes(StandardCharsets.US_ASCII));
            out.write(HexFormat.of().parseHex(frames.replace(" ", "")));
            out.flush();
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            StubUpgrade.skipHead(in);
            assertThat(in.readUnsignedByte()).as("a close frame").isEqualTo(0x88);
            assertThat(in.readUnsignedByte()).as("unmasked, 2 bytes").isEqualTo(2);
            assertThat(in.readUnsignedShort()).isEqualTo(code);
            assertThat(in.read()).as("then the server closes").isEqualTo(-1);
        }
        assertThat(server.next()).isEqualTo("opened");
        assertThat(server.next()).isEqualTo("closed:" + code);
    }

    @Test
    void aCloseFromTheServerThatThePeerNeverAnswersTimesOut() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(false);
        final int port = serve(new WebSocketConfig().closeTimeoutMillis(200), () -> server, 4096);
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(StubUpgrade.REQUEST.getBytes(StandardCharsets.US_ASCII));
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            StubUpgrade.skipHead(in);
            assertThat(server.next()).isEqualTo("opened");
            serverReactor.call(() -> server.socket.close(1001, ""));
            assertThat(in.readUnsignedShort()).isEqualTo(0x8802);
            assertThat(in.readUnsignedShort()).isEqualTo(1001);
            assertThat(in.read()).as("closed after the timeout").isEqualTo(-1);
            assertThat(server.next()).isEqualTo("closed:1006");
        }
    }

    @Test
    void aPeerThatDropsTheConnectionIsAnAbnormalClosure() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(false);
        final int port = serve(new WebSocketConfig(), () -> server, 4096);
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.getOutputStream().write(StubUpgrade.REQUEST.getBytes(StandardCharsets.US_ASCII));
            // Half a frame header, then gone.
            socket.getOutputStream().write(0x81);
            assertThat(server.next()).isEqualTo("opened");
        }
        assertThat(server.next()).isEqualTo("closed:1006");
    }
}
