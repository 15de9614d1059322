package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.PlainTransport;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.Transport;
import io.celer.tcp.TransportFactory;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;

/**
 * A client whose socket is behind costs its server no system call per message: while its connection lags, sends
 * queue and {@link Outbox#flush()} leave the socket alone, and the reactor's write-space event drains the queue once
 * the client reads again, in order and without loss.
 */
class LaggingFlushTest
{
    private static final int MESSAGE = 100;
    private static final int QUEUED = 2_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();
    private final CountingTransport transport = new CountingTransport();

    @Test
    void aLaggingClientIsNeitherFlushedNorWrittenUntilItsSocketTakesMore() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final Fanout fanout = new Fanout(new OutboundConfig().maxQueuedMessages(QUEUED)
            .maxQueuedBytes(QUEUED * MESSAGE).maxMessageLength(MESSAGE));
        final TcpConfig tcp = new TcpConfig().bindAddress("127.0.0.1").disconnectOnFullWriteBuffer(false)
            .writeBufferSize(16 * 1024).socketSendBufferSize(16 * 1024).transport(transport);
        final FanoutServer server = new FanoutServer(reactor, fanout, tcp);
        try (RawPeer peer = new RawPeer(server.port(), 4096))
        {
            final Outbox client = server.awaitOneClient();
            final ByteBuffer message = ByteBuffer.allocate(MESSAGE);
            final long[] next = new long[1];

            // Fill the socket and the write buffer until the outbox queues: the connection is behind.
            Await.until(() -> "the outbox queues", () -> OnReactor.get(reactor, () ->
            {
                for (int i = 0; i < 50; i++)
                {
                    message.clear().putLong(0, next[0]++);
                    client.sendBinary(message);
                    client.flush();
                }
                return client.queuedMessages() > 0;
            }), Duration.ofSeconds(30));
            assertThat(OnReactor.get(reactor, () -> client.socket().connection().isLagging())).isTrue();

            // Within one reactor call the socket cannot take more: nothing may reach it.
            final long writesBefore = OnReactor.get(reactor, () -> transport.writes);
            final long queuedBefore = OnReactor.get(reactor, client::queuedMessages);
            final long sent = OnReactor.get(reactor, () ->
            {
                for (int i = 0; i < 500; i++)
                {
                    message.clear().putLong(0, next[0]++);
                    client.sendBinary(message);
                    client.flush();
                }
                return next[0];
            });
            assertThat(OnReactor.get(reactor, () -> transport.writes)).as("writes while lagging")
                .isEqualTo(writesBefore);
            assertThat(OnReactor.get(reactor, client::queuedMessages)).isEqualTo(queuedBefore + 500);
            assertThat(OnReactor.get(reactor, client::dropped)).isZero();

            // Reading drains the queue through the write-space event: every message arrives, in order.
            for (long expected = 0; expected < sent; expected++)
            {
                assertThat(peer.readFrame().sequence()).isEqualTo(expected);
            }
            Await.until(() -> "the queue drained", () -> OnReactor.get(reactor, () -> client.queuedMessages() == 0 &&
                !client.isLagging()), Duration.ofSeconds(30));
        }
    }

    /**
     * The plain transport, counting the writes that reach the socket; its count is read on the reactor thread.
     */
    private static final class CountingTransport implements TransportFactory, Transport
    {
        long writes;

        @Override
        public Transport newTransport(final boolean clientMode, final String peerHost, final int peerPort)
        {
            return this;
        }

        @Override
        public boolean handshake(final SocketChannel channel) throws IOException
        {
            return PlainTransport.INSTANCE.handshake(channel);
        }

        @Override
        public int read(final SocketChannel channel, final ByteBuffer destination, final boolean fromSocket)
            throws IOException
        {
            return PlainTransport.INSTANCE.read(channel, destination, fromSocket);
        }

        @Override
        public boolean hasBufferedInput()
        {
            return false;
        }

        @Override
        public void write(final SocketChannel channel, final ByteBuffer source) throws IOException
        {
            writes++;
            PlainTransport.INSTANCE.write(channel, source);
        }

        @Override
        public boolean hasPendingOutput()
        {
            return false;
        }

        @Override
        public void shutdown(final SocketChannel channel)
        {
            PlainTransport.INSTANCE.shutdown(channel);
        }
    }
}
