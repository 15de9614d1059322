package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.zip.Deflater;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Reactors;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.RecordingWebSocketHandler;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;

/**
 * Sessions with permessage-deflate on, over loopback: RFC 7692's example frames from a raw server reach a
 * client session, and compressed messages echo both ways with and without context takeover.
 */
class CompressedSessionTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void rfcExampleFramesReachAClient() throws Exception
    {
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false);
        try (ServerSocket listener = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            try (Socket server = upgradedByRawServer(listener, reactors.start("client"), client))
            {
                server.getOutputStream().write(HexFormat.of().parseHex(
                    "c107f248cdc9c90700" + // 7.2.3.1, one frame
                    "4103f248cd" + "8004c9c90700" + // 7.2.3.1, fragmented
                    "c105f200110000" + // 7.2.3.2, referring back to the window
                    "c10b000500faff48656c6c6f00" + // 7.2.3.3, a stored block
                    "c10df248050000" + "00ffffcac9c90700" + // 7.2.3.5, two blocks
                    "c108f348cdc9c9070000" + // 7.2.3.4, a final block (the window starts over after it)
                    "c10100" + // 7.2.3.6, an empty message
                    "8105" + "48656c6c6f")); // and an uncompressed one
                assertThat(client.next()).isEqualTo("opened");
                for (int i = 0; i < 6; i++)
                {
                    assertThat(client.next()).as("message %d", i).isEqualTo("text:Hello");
                }
                assertThat(client.next()).isEqualTo("text:");
                assertThat(client.next()).isEqualTo("text:Hello");
            }
        }
    }

    @Test
    void aClientInflatesALargeMessageInSlicesAndDeliversItWholeBeforeWhatFollows() throws Exception
    {
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false);
        final byte[] message = new byte[8 << 20];
        final byte[] noise = new byte[4096];
        new SplittableRandom(7).nextBytes(noise);
        System.arraycopy(noise, 0, message, 0, noise.length); // a little that does not compress, then zeros
        final Deflater deflater = new Deflater(9, true);
        deflater.setInput(message);
        final byte[] compressed = new byte[64 * 1024];
        final int length = deflater.deflate(compressed, 0, compressed.length, Deflater.SYNC_FLUSH) - 4;
        assertThat(deflater.needsInput()).isTrue();
        deflater.end();
        try (ServerSocket listener = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            try (Socket server = upgradedByRawServer(listener, reactors.start("client"), client))
            {
                // Many slices of the default bound; a plain message right behind it in the same write.
                final ByteBuffer frames = ByteBuffer.allocate(4 + length + 7);
                frames.put((byte)0xC2).put((byte)126).putShort((short)length).put(compressed, 0, length);
                frames.put(HexFormat.of().parseHex("8105" + "48656c6c6f"));
                server.getOutputStream().write(frames.array());
                assertThat(client.next()).isEqualTo("opened");
                assertThat(client.next()).isEqualTo(RecordingWebSocketHandler.binaryEvent(message));
                assertThat(client.next()).isEqualTo("text:Hello");
            }
        }
    }

    @ParameterizedTest(name = "no context takeover: {0}")
    @ValueSource(booleans = {false, true})
    void compressedMessagesEchoBothWays(final boolean noContextTakeover) throws Exception
    {
        final Echoing echoing = echoing(noContextTakeover, Deflater.BEST_SPEED);
        final RecordingWebSocketHandler client = echoing.client();
        final Reactor clientReactor = echoing.reactor();

        final byte[] random = randomBytes(5);
        final String text = "the quick brown fox \u00e9\u4e2d ".repeat(1_000);
        clientReactor.call(() ->
        {
            for (int i = 0; i < 3; i++)
            {
                client.socket.sendText(text);
                client.socket.sendBinary(ByteBuffer.wrap(random));
                client.socket.sendText("");
            }
        });
        for (int i = 0; i < 3; i++)
        {
            assertThat(client.next()).isEqualTo("text:" + text);
            assertThat(client.next()).isEqualTo(RecordingWebSocketHandler.binaryEvent(random));
            assertThat(client.next()).isEqualTo("text:");
        }
    }

    @Test
    void fragmentsGoCompressedWithRsv1OnTheFirstOnly() throws Exception
    {
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false);
        try (ServerSocket listener = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            final Reactor clientReactor = reactors.start("client");
            try (Socket server = upgradedByRawServer(listener, clientReactor, client))
            {
                assertThat(client.next()).isEqualTo("opened");
                final String[] parts = {"Hello, ", "W\u00f6rld", "", "!"};
                clientReactor.call(() ->
                {
                    for (int i = 0; i < parts.length; i++)
                    {
                        assertThat(client.socket.sendTextFragment(parts[i], i == parts.length - 1)).isTrue();
                    }
                });
                final DataInputStream in = new DataInputStream(server.getInputStream());
                final java.io.ByteArrayOutputStream compressed = new java.io.ByteArrayOutputStream();
                for (int i = 0; i < parts.length; i++)
                {
                    final int first = in.readUnsignedByte();
                    final int expected = (i == parts.length - 1 ? 0x80 : 0) | (i == 0 ? 0x41 : 0x00);
                    assertThat(first).as("frame %d's first byte", i).isEqualTo(expected);
                    final int second = in.readUnsignedByte();
                    assertThat(second & 0x80).as("masked").isEqualTo(0x80);
                    final byte[] key = new byte[4];
                    in.readFully(key);
                    final byte[] payload = new byte[second & 0x7F];
                    in.readFully(payload);
                    for (int k = 0; k < payload.length; k++)
                    {
                        payload[k] ^= key[k & 3];
                    }
                    compressed.write(payload);
                }
                compressed.write(new byte[] {0, 0, (byte)0xFF, (byte)0xFF});
                final java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
                inflater.setInput(compressed.toByteArray());
                final byte[] text = new byte[100];
                final int length = inflater.inflate(text);
                inflater.end();
                assertThat(new String(text, 0, length, StandardCharsets.UTF_8)).isEqualTo(String.join("", parts));
            }
        }
    }

    @ParameterizedTest(name = "no context takeover: {0}")
    @ValueSource(booleans = {false, true})
    void compressedFragmentsEchoBothWaysBetweenWholeMessages(final boolean noContextTakeover) throws Exception
    {
        final Echoing echoing = echoing(noContextTakeover, Deflater.DEFAULT_COMPRESSION);
        final RecordingWebSocketHandler client = echoing.client();
        final Reactor clientReactor = echoing.reactor();

        final byte[] random = randomBytes(7);
        final String text = "fragments of a compressed message \u00e9\u4e2d ".repeat(300);
        clientReactor.call(() ->
        {
            for (int i = 0; i < 2; i++)
            {
                client.socket.sendTextFragment(text, false);
                client.socket.ping(ByteBuffer.wrap(new byte[] {'p'}));
                client.socket.sendTextFragment(text, true);
                client.socket.sendFragment(ByteBuffer.wrap(random, 0, 12_000), false, false);
                client.socket.sendFragment(ByteBuffer.wrap(random, 12_000, 8_000), false, true);
                client.socket.sendText(text);
            }
        });
        for (int i = 0; i < 2; i++)
        {
            assertThat(client.next()).isEqualTo("pong:p");
            assertThat(client.next()).isEqualTo("text:" + text + text);
            assertThat(client.next()).isEqualTo(RecordingWebSocketHandler.binaryEvent(random));
            assertThat(client.next()).isEqualTo("text:" + text);
        }
    }

    /** An echoing server and a client, both compressing, connected over loopback. */
    private Echoing echoing(final boolean noContextTakeover, final int clientLevel) throws Exception
    {
        final DeflateParameters agreed = new DeflateParameters(noContextTakeover, noContextTakeover, 0, 0);
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(true);
        final RecordingWebSocketHandler client = new RecordingWebSocketHandler(false);
        final int port = compressingServer(new TcpConfig().bindAddress("127.0.0.1").readBufferSize(1024),
            new WebSocketConfig(), server, agreed);
        final Reactor clientReactor = reactors.start("client");
        new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig(), new StubUpgrade(false, () ->
            WebSocketSession.client(new WebSocketConfig(), client).compression(agreed, clientLevel))).open();
        assertThat(client.next()).isEqualTo("opened");
        return new Echoing(clientReactor, client);
    }

    private record Echoing(Reactor reactor, RecordingWebSocketHandler client)
    {
    }

    /** 20,000 bytes, the same for a seed. */
    private static byte[] randomBytes(final long seed)
    {
        final byte[] random = new byte[20_000];
        new SplittableRandom(seed).nextBytes(random);
        return random;
    }

    /** A server whose sessions compress with the given parameters; returns its port. */
    private int compressingServer(final TcpConfig tcp, final WebSocketConfig config,
        final RecordingWebSocketHandler server, final DeflateParameters agreed)
    {
        return new TcpServer(reactors.start("server"), 0, tcp, new StubUpgrade(true, () ->
            WebSocketSession.server(config, server).compression(agreed))).open().port();
    }

    /** A plain socket connected to the port that has sent the upgrade request; the 101 is left for the test. */
    private static Socket upgradingRawClient(final int port) throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        socket.getOutputStream().write(StubUpgrade.REQUEST.getBytes(StandardCharsets.US_ASCII));
        return socket;
    }

    /**
     * Connects a compressing client to a plain socket listener and plays the server's side of the upgrade there,
     * returning the server's socket for the test to write and read raw frames on.
     */
    private static Socket upgradedByRawServer(final ServerSocket listener, final Reactor clientReactor,
        final RecordingWebSocketHandler client) throws IOException
    {
        new TcpClient(clientReactor, "127.0.0.1", listener.getLocalPort(), new TcpConfig(),
            new StubUpgrade(false, () -> WebSocketSession.client(new WebSocketConfig(), client)
                .compression(new DeflateParameters(false, false, 0, 0)))).open();
        final Socket server = listener.accept();
        server.setSoTimeout(30_000);
        StubUpgrade.skipHead(server.getInputStream());
        server.getOutputStream().write(StubUpgrade.RESPONSE.getBytes(StandardCharsets.US_ASCII));
        return server;
    }

    @Test
    void aServerSendsCompressedFramesWithRsv1() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(true);
        final int port = compressingServer(new TcpConfig().bindAddress("127.0.0.1"), new WebSocketConfig(), server,
            new DeflateParameters(false, false, 0, 0));
        try (Socket socket = upgradingRawClient(port))
        {
            // "Hello" twice, masked with a zero key, uncompressed: the echo goes back compressed.
            socket.getOutputStream().write(HexFormat.of().parseHex("818500000000" + "48656c6c6f" + "818500000000" +
                "48656c6c6f"));
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            StubUpgrade.skipHead(in);
            final byte[] first = new byte[9];
            in.readFully(first);
            assertThat(HexFormat.of().formatHex(first)).isEqualTo("c107f248cdc9c90700");
            final byte[] second = new byte[7];
            in.readFully(second);
            assertThat(HexFormat.of().formatHex(second)).as("the window carries over").isEqualTo("c105f200110000");
        }
    }

    @Test
    void aMessageThatInflatesPastTheLimitFailsWith1009() throws Exception
    {
        final RecordingWebSocketHandler server = new RecordingWebSocketHandler(false);
        final DeflateParameters agreed = new DeflateParameters(false, false, 0, 0);
        final int port = compressingServer(new TcpConfig().bindAddress("127.0.0.1"),
            new WebSocketConfig().maxMessageLength(100_000), server, agreed);
        // A megabyte of zeros deflates to about a kilobyte.
        final Deflater deflater = new Deflater(9, true);
        deflater.setInput(new byte[1 << 20]);
        final byte[] compressed = new byte[8192];
        final int length = deflater.deflate(compressed, 0, compressed.length, Deflater.SYNC_FLUSH) - 4;
        deflater.end();
        try (Socket socket = upgradingRawClient(port))
        {
            final ByteBuffer frame = ByteBuffer.allocate(8 + length);
            frame.put((byte)0xC2).put((byte)(0x80 | 126)).putShort((short)length).putInt(0).put(compressed, 0, length);
            socket.getOutputStream().write(frame.array());
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            StubUpgrade.skipHead(in);
            assertThat(in.readUnsignedShort()).isEqualTo(0x8802);
            assertThat(in.readUnsignedShort()).isEqualTo(1009);
        }
        assertThat(server.next()).isEqualTo("opened");
        assertThat(server.next()).isEqualTo("closed:1009");
    }
}
