package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.celer.framing.FixedSizeFraming;
import io.celer.framing.Framing;
import io.celer.framing.LengthPrefixedFraming;
import io.celer.framing.LineFraming;
import io.celer.test.Await;
import io.celer.test.Framed;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Transports;

/**
 * Each framing delivers exactly the messages sent, in order, however the bytes arrive, over plain TCP and
 * over TLS (where the bytes that arrive in pieces are the encrypted records).
 */
class FramingOverTcpTest
{
    private static final int FIXED = 24;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    static Stream<Arguments> framings()
    {
        return Stream.of(Transports.values()).flatMap(transport -> framingsOnly()
            .map(framing -> Arguments.of(transport, framing.get()[0], framing.get()[1])));
    }

    private static Stream<Arguments> framingsOnly()
    {
        return Stream.of(
            Arguments.of("line", (Supplier<Framing>)() -> new LineFraming(60)),
            Arguments.of("line-crlf", (Supplier<Framing>)() -> new LineFraming(60, true)),
            Arguments.of("fixed", (Supplier<Framing>)() -> new FixedSizeFraming(FIXED)),
            Arguments.of("length-1", (Supplier<Framing>)() -> new LengthPrefixedFraming(1, 60)),
            Arguments.of("length-2", (Supplier<Framing>)() -> new LengthPrefixedFraming(2, 60)),
            Arguments.of("length-4", (Supplier<Framing>)() -> new LengthPrefixedFraming(4, 60)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("framings")
    void bytesDribbledOneAtATime(final Transports transport, final String name, final Supplier<Framing> framing)
        throws Exception
    {
        final List<String> sent = messages(name, 20);
        final RecordingHandler server = serve(transport, framing, 256);
        try (Socket socket = transport.over(configured(new DribblingSocket("127.0.0.1", port))))
        {
            server.awaitEvent("opened");
            final OutputStream out = socket.getOutputStream();
            final Framing encoder = framing.get();
            for (final String message : sent)
            {
                // One write per message: over TLS one record each, which the socket then dribbles.
                out.write(Framed.encode(encoder, List.of(message)));
                out.flush();
            }
            assertReceived(server, sent);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("framings")
    void manyMessagesCoalescedInOneWrite(final Transports transport, final String name,
        final Supplier<Framing> framing) throws Exception
    {
        assertOneWriteArrives(transport, name, framing, 64 * 1024);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("framings")
    void messagesSplitAcrossTheReadBuffersEnd(final Transports transport, final String name,
        final Supplier<Framing> framing) throws Exception
    {
        // A 67-byte read buffer holds a couple of messages at most, so nearly every read ends mid-message; over
        // TLS a decrypted record waits in the transport and reaches the buffer 67 bytes at a time.
        assertOneWriteArrives(transport, name, framing, 67);
    }

    /**
     * Writes two thousand messages at once to a server that reads into a buffer of the given size, and checks
     * that each arrives whole and in order.
     */
    private void assertOneWriteArrives(final Transports transport, final String name, final Supplier<Framing> framing,
        final int readBuffer) throws Exception
    {
        final List<String> sent = messages(name, 2_000);
        final RecordingHandler server = serve(transport, framing, readBuffer);
        try (Socket socket = connect(transport, server))
        {
            socket.getOutputStream().write(Framed.encode(framing.get(), sent));
            assertReceived(server, sent);
        }
    }

    private RecordingHandler serve(final Transports transport, final Supplier<Framing> framing, final int readBuffer)
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(framing).readBufferSize(readBuffer).transport(transport.server()), handler).open();
        port = server.port();
        return handler;
    }

    private int port;

    private Socket connect(final Transports transport, final RecordingHandler server) throws IOException
    {
        final Socket socket = transport.connect("127.0.0.1", port);
        server.awaitEvent("opened");
        return socket;
    }

    private static Socket configured(final Socket socket) throws IOException
    {
        socket.setTcpNoDelay(true);
        socket.setSoTimeout((int)Await.DEFAULT.toMillis());
        return socket;
    }

    /**
     * A socket that puts its bytes on the wire one at a time, pausing after each.
     */
    private static final class DribblingSocket extends Socket
    {
        DribblingSocket(final String host, final int port) throws IOException
        {
            super(host, port);
        }

        @Override
        public OutputStream getOutputStream() throws IOException
        {
            final OutputStream wire = super.getOutputStream();
            return new OutputStream()
            {
                @Override
                public void write(final int b) throws IOException
                {
                    wire.write(b);
                    wire.flush();
                    try
                    {
                        Thread.sleep(0, 200_000);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException();
                    }
                }

                @Override
                public void write(final byte[] bytes, final int offset, final int length) throws IOException
                {
                    for (int i = offset; i < offset + length; i++)
                    {
                        write(bytes[i]);
                    }
                }
            };
        }
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
}
