package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.LengthPrefixedFraming;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Transports;

/**
 * A peer that stops reading: whole messages or nothing, and nothing lost once it reads again; over plain TCP
 * and over TLS, where the peer checks the messages after decryption.
 */
class BackPressureTest
{
    private static final int MESSAGES = 20_000;
    private static final int PAYLOAD = 100;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Writes sequence-numbered messages until the buffer refuses one, resumes when space frees up.
     */
    private static final class Producer extends RecordingHandler
    {
        final AtomicInteger refusals = new AtomicInteger();
        final AtomicInteger freed = new AtomicInteger();
        volatile boolean laggingWhenRefused;
        volatile int remainingWhenRefused = -1;
        private final ByteBuffer message = ByteBuffer.allocateDirect(PAYLOAD);
        private int next;

        @Override
        public void opened(final Connection connection)
        {
            super.opened(connection);
            produce(connection);
        }

        @Override
        public void writable(final Connection connection, final int freeBytes)
        {
            freed.incrementAndGet();
            produce(connection);
        }

        private void produce(final Connection connection)
        {
            while (next < MESSAGES)
            {
                message.clear();
                message.putLong(next);
                while (message.hasRemaining())
                {
                    message.put((byte)(next + message.position()));
                }
                message.flip();
                if (!connection.write(message))
                {
                    assertThat(message.position()).as("a refused message is left untouched").isZero();
                    if (refusals.get() == 0)
                    {
                        // Recorded before the count goes up: the test thread reads these once it sees a refusal.
                        laggingWhenRefused = connection.isLagging();
                        remainingWhenRefused = connection.writeBufferRemaining();
                    }
                    refusals.incrementAndGet();
                    return;
                }
                next++;
            }
            connection.close();
        }
    }

    /**
     * A peer with a small receive buffer, so that the server's socket fills up soon.
     */
    private static Socket smallWindowPeer(final Transports transport, final int port) throws IOException
    {
        final Socket socket = new Socket();
        try
        {
            socket.setReceiveBufferSize(8 * 1024);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setSoTimeout((int)Await.DEFAULT.toMillis());
            return transport.over(socket);
        }
        catch (final IOException | RuntimeException ex)
        {
            socket.close();
            throw ex;
        }
    }

    /**
     * A server whose small write buffer and socket send buffer fill soon under the producer.
     */
    private TcpServer producerServer(final Transports transport, final Producer producer,
        final boolean disconnectOnFullWriteBuffer)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig()
            .bindAddress("127.0.0.1")
            .framing(() -> new LengthPrefixedFraming(4, PAYLOAD))
            .writeBufferSize(16 * 1024)
            .socketSendBufferSize(8 * 1024)
            .disconnectOnFullWriteBuffer(disconnectOnFullWriteBuffer)
            .transport(transport.server()), producer).open();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aStalledPeerGetsEveryMessageExactlyOnceWhenItResumes(final Transports transport) throws Exception
    {
        final Producer producer = new Producer();
        final TcpServer server = producerServer(transport, producer, false);

        try (Socket peer = smallWindowPeer(transport, server.port()))
        {
            Await.until("the producer to hit a full write buffer", () -> producer.refusals.get() > 0);
            assertThat(producer.laggingWhenRefused).isTrue();
            assertThat(producer.remainingWhenRefused).isLessThan(PAYLOAD + 4);
            Thread.sleep(50); // stay stalled a little: the refused message must not trickle out meanwhile

            final DataInputStream in = new DataInputStream(peer.getInputStream());
            for (int seq = 0; seq < MESSAGES; seq++)
            {
                assertThat(in.readInt()).as("length of message " + seq).isEqualTo(PAYLOAD);
                assertThat(in.readLong()).as("sequence").isEqualTo(seq);
                for (int i = 8; i < PAYLOAD; i++)
                {
                    if (in.readByte() != (byte)(seq + i))
                    {
                        throw new AssertionError("message " + seq + " corrupt at byte " + i);
                    }
                }
            }
            assertThat(in.read()).as("nothing after the last message").isEqualTo(-1);
        }
        assertThat(producer.freed.get()).isPositive();
        assertThat(producer.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
        assertThat(producer.errors).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void byDefaultAFullWriteBufferDisconnects(final Transports transport) throws Exception
    {
        final Producer producer = new Producer();
        final TcpServer server = producerServer(transport, producer, true);

        try (Socket peer = smallWindowPeer(transport, server.port()))
        {
            assertThat(producer.awaitClosed()).isEqualTo(CloseReason.WRITE_BUFFER_FULL);
            Await.until("the refused write to return", () -> producer.refusals.get() == 1);

            // What reached the wire before the disconnect is whole messages only.
            final DataInputStream in = new DataInputStream(peer.getInputStream());
            int seq = 0;
            try
            {
                while (true)
                {
                    final int length = in.readInt();
                    assertThat(length).isEqualTo(PAYLOAD);
                    assertThat(in.readLong()).isEqualTo(seq++);
                    in.readFully(new byte[PAYLOAD - 8]);
                }
            }
            catch (final EOFException | java.net.SocketException | javax.net.ssl.SSLException end)
            {
                // The server dropped the connection; a reset may cut the stream short, a FIN ends it cleanly,
                // and over TLS the last record may be cut short: what decrypted before is still checked.
            }
            assertThat(seq).isPositive();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aMessageLargerThanTheWriteBufferIsAClearError(final Transports transport)
    {
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.write(new byte[2048]);
            }
        };
        final TcpServer server = new TcpServer(reactors.start("server"), 0,
            new TcpConfig().bindAddress("127.0.0.1").writeBufferSize(1024).transport(transport.server()), handler)
            .open();
        try (Socket peer = transport.connect("127.0.0.1", server.port()))
        {
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.HANDLER_ERROR);
            assertThat(handler.errors).singleElement()
                .isInstanceOf(IllegalArgumentException.class)
                .extracting(Throwable::getMessage)
                .isEqualTo("a frame of 2048 bytes can never fit the write buffer of 1024 bytes");
        }
        catch (final java.io.IOException ex)
        {
            throw new AssertionError(ex);
        }
    }
}
