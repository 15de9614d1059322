package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.celer.framing.FixedSizeFraming;
import io.celer.framing.Framing;
import io.celer.framing.LengthPrefixedFraming;
import io.celer.framing.LineFraming;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;

/**
 * Each framing delivers exactly the messages sent, in order, however the bytes arrive.
 */
class FramingOverTcpTest
{
    private static final int FIXED = 24;

    private final Reactors reactors = new Reactors();

    @AfterEach
    void stop()
    {
        reactors.close();
    }

    static Stream<Arguments> framings()
    {
        return Stream.of(
            Arguments.of("line", (Supplier<Framing>)() -> new LineFraming(60)),
            Arguments.of("line-crlf", (Supplier<Framing>)() -> new LineFraming(60, true)),
            Arguments.of("fixed", (Supplier<Framing>)() -> new FixedSizeFraming(FIXED)),
            Arguments.of("length-1", (Supplier<Framing>)() -> new LengthPrefixedFraming(1, 60)),
            Arguments.of("length-2", (Supplier<Framing>)() -> new LengthPrefixedFraming(2, 60)),
            Arguments.of("length-4", (Supplier<Framing>)() -> new LengthPrefixedFraming(4, 60)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("framings")
    void bytesDribbledOneAtATime(final String name, final Supplier<Framing> framing) throws Exception
    {
        final List<String> sent = messages(name, 20);
        final RecordingHandler server = serve(framing, 256);
        try (Socket socket = connect(server))
        {
            final OutputStream out = socket.getOutputStream();
            for (final byte b : encode(framing.get(), sent))
            {
                out.write(b);
                out.flush();
                Thread.sleep(0, 200_000);
            }
            assertReceived(server, sent);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("framings")
    void manyMessagesCoalescedInOneWrite(final String name, final Supplier<Framing> framing) throws Exception
    {
        final List<String> sent = messages(name, 2_000);
        final RecordingHandler server = serve(framing, 64 * 1024);
        try (Socket socket = connect(server))
        {
            socket.getOutputStream().write(encode(framing.get(), sent));
            assertReceived(server, sent);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("framings")
    void messagesSplitAcrossTheReadBuffersEnd(final String name, final Supplier<Framing> framing) throws Exception
    {
        // A 67-byte read buffer holds a couple of messages at most, so nearly every read ends mid-message.
        final List<String> sent = messages(name, 2_000);
        final RecordingHandler server = serve(framing, 67);
        try (Socket socket = connect(server))
        {
            socket.getOutputStream().write(encode(framing.get(), sent));
            assertReceived(server, sent);
        }
    }

    private RecordingHandler serve(final Supplier<Framing> framing, final int readBuffer)
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = new TcpServer(reactors.start("server"), 0,
            new TcpConfig().bindAddress("127.0.0.1").framing(framing).readBufferSize(readBuffer), handler).open();
        port = server.port();
        return handler;
    }

    private int port;

    private Socket connect(final RecordingHandler server) throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        server.awaitEvent("opened");
        return socket;
    }

    private static void assertReceived(final RecordingHandler server, final List<String> sent)
    {
        final List<String> received = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++)
        {
            received.add(server.nextMessage());
        }
        assertThat(received).containsExactlyElementsOf(sent);
        assertThat(server.errors).isEmpty();
        assertThat(server.messages).isEmpty();
    }

    /**
     * Messages of varied lengths (all of {@value #FIXED} bytes for the fixed framing), each naming its index.
     */
    private static List<String> messages(final String framing, final int count)
    {
        final List<String> messages = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final String text = "m" + i + "-" + "abcdefghijklmnopqrstuvwxyz0123456789".substring(0, i % 37);
            messages.add(framing.equals("fixed") ? (text + "#".repeat(FIXED)).substring(0, FIXED) : text);
        }
        return messages;
    }

    private static byte[] encode(final Framing framing, final List<String> messages)
    {
        final ByteBuffer out = ByteBuffer.allocate(messages.size() * 80);
        for (final String message : messages)
        {
            final byte[] payload = message.getBytes(StandardCharsets.ISO_8859_1);
            framing.frameLength(payload.length);
            framing.writeHeader(out, payload.length);
            out.put(payload);
            framing.writeTrailer(out);
        }
        return java.util.Arrays.copyOf(out.array(), out.position());
    }
}
