package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.TransportFactory;
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
    /** The plain transport the counting one wraps. */
    private static final Transport PLAIN_TRANSPORT = TransportFactory.plain().newTransport(false, null, -1);

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

            // Fill the socket and the write buffer until the outbox queues: the connection is behind. Then, within
            // the same reactor call, the socket cannot take more: nothing may reach it. All in one call, since
            // between calls the reactor may hear that the socket took more, and rightly write and drain.
            final long[] before = new long[2];
            final long[] after = new long[4];
            Await.until(() -> "the outbox queues", () -> OnReactor.get(reactor, () ->
            {
                for (int i = 0; i < 50 && client.queuedMessages() == 0; i++)
                {
                    message.clear().putLong(0, next[0]++);
                    client.sendBinary(message);
                    client.flush();
                }
                if (client.queuedMessages() == 0)
                {
                    return false;
                }
                before[0] = transport.writes;
                before[1] = client.queuedMessages();
                for (int i = 0; i < 500; i++)
                {
                    message.clear().putLong(0, next[0]++);
                    client.sendBinary(message);
                    client.flush();
                }
                after[0] = transport.writes;
                after[1] = client.queuedMessages();
                after[2] = client.dropped();
                after[3] = client.socket().connection().isLagging() ? 1 : 0;
                return true;
            }), Duration.ofSeconds(30));
            final long sent = next[0];
            assertThat(after[3]).as("lagging").isEqualTo(1);
            assertThat(after[0]).as("writes while lagging").isEqualTo(before[0]);
            assertThat(after[1]).as("messages queued").isEqualTo(before[1] + 500);
            assertThat(after[2]).as("messages dropped").isZero();

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
        public boolean handshake(final ByteChannel channel) throws IOException
        {
            return PLAIN_TRANSPORT.handshake(channel);
        }

        @Override
        public int read(final ByteChannel channel, final ByteBuffer destination, final boolean fromSocket)
            throws IOException
        {
            return PLAIN_TRANSPORT.read(channel, destination, fromSocket);
        }

        @Override
        public boolean hasBufferedInput()
        {
            return false;
        }

        @Override
        public void write(final ByteChannel channel, final ByteBuffer source) throws IOException
        {
            writes++;
            PLAIN_TRANSPORT.write(channel, source);
        }

        @Override
        public boolean hasPendingOutput()
        {
            return false;
        }

        @Override
        public void shutdown(final ByteChannel channel)
        {
            PLAIN_TRANSPORT.shutdown(channel);
        }
    }
}
