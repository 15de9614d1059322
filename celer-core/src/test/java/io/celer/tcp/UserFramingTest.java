package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.Framing;
import io.celer.framing.MessageSink;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;

/**
 * A framing the application defines plugs in like the built-in ones, on both the read and the write path.
 */
class UserFramingTest
{
    /**
     * Messages wrapped in STX ... ETX, bytes outside a frame ignored.
     */
    static final class StxEtxFraming implements Framing
    {
        static final byte STX = 0x02;
        static final byte ETX = 0x03;

        @Override
        public void decode(final ByteBuffer buffer, final MessageSink sink)
        {
            final int limit = buffer.limit();
            int start = buffer.position();
            while (start < limit && buffer.get(start) != STX)
            {
                start++; // noise between frames
            }
            for (int i = start + 1; i < limit; i++)
            {
                if (buffer.get(i) == ETX)
                {
                    buffer.limit(i).position(start + 1);
                    final boolean more = sink.onMessage(buffer);
                    buffer.limit(limit);
                    start = i + 1;
                    if (!more)
                    {
                        break;
                    }
                    while (start < limit && buffer.get(start) != STX)
                    {
                        start++;
                    }
                    i = start;
                }
            }
            buffer.position(start);
        }

        @Override
        public int frameLength(final int payloadLength)
        {
            return payloadLength + 2;
        }

        @Override
        public void writeHeader(final ByteBuffer out, final int payloadLength)
        {
            out.put(STX);
        }

        @Override
        public void writeTrailer(final ByteBuffer out)
        {
            out.put(ETX);
        }

        @Override
        public int maxFrameLength()
        {
            return 1024;
        }
    }

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void aUserFramingCutsAndWrapsMessages() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = new TcpServer(reactors.start("server"), 0,
            new TcpConfig().bindAddress("127.0.0.1").framing(StxEtxFraming::new), handler).open();
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            socket.getOutputStream().write("noise\u0002one\u0003\u0002tw".getBytes(StandardCharsets.US_ASCII));
            assertThat(handler.nextMessage()).isEqualTo("one");
            socket.getOutputStream().write("o\u0003".getBytes(StandardCharsets.US_ASCII));
            assertThat(handler.nextMessage()).isEqualTo("two");

            final InputStream in = socket.getInputStream();
            final byte[] echoed = in.readNBytes(10);
            assertThat(new String(echoed, StandardCharsets.US_ASCII)).isEqualTo("\u0002one\u0003\u0002two\u0003");
        }
    }

    @Test
    void aReadBufferTooSmallForTheFramingIsRefusedWhenTheServerOpens()
    {
        final TcpServer server = new TcpServer(reactors.start("server"), 0,
            new TcpConfig().bindAddress("127.0.0.1").framing(StxEtxFraming::new).readBufferSize(512),
            new RecordingHandler());
        org.assertj.core.api.Assertions.assertThatThrownBy(server::open)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("read buffer of 512 bytes cannot hold the framing's longest frame of 1024 bytes");
    }

    @Test
    void socketBuffersReportWhatTheKernelGranted() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .socketSendBufferSize(64 * 1024).socketReceiveBufferSize(64 * 1024), handler).open();
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            handler.awaitEvent("opened");
            final int[] sizes = new int[2];
            handler.connection.reactor().call(() ->
            {
                sizes[0] = handler.connection.socketSendBufferSize();
                sizes[1] = handler.connection.socketReceiveBufferSize();
            });
            // Linux doubles the requested size for its bookkeeping; others grant it or less.
            assertThat(sizes[0]).isPositive();
            assertThat(sizes[1]).isPositive();
        }
    }
}
