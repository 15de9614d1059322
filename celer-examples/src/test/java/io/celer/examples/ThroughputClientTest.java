package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Allocations;
import io.celer.test.Await;

class ThroughputClientTest
{
    private static final int MESSAGES = 200_000;
    private static final int SIZE = 64;

    @RegisterExtension
    final Loopback loopback = new Loopback();

    @Test
    void sendsEveryMessageThroughAFullWriteBuffer() throws Exception
    {
        final CountingLineServer counter = new CountingLineServer(SIZE);
        final TcpServer server = loopback.serve("counter", new TcpConfig()
            .bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(SIZE))
            .socketReceiveBufferSize(16 * 1024), counter);

        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final Reactor reactor = loopback.reactor("client");
        // Buffers far smaller than what is sent, so the client must overflow and wait for the socket.
        final TcpConfig config = new TcpConfig().writeBufferSize(4 * 1024).socketSendBufferSize(16 * 1024);
        final ThroughputClient client = new ThroughputClient(reactor, "127.0.0.1", server.port(), MESSAGES, SIZE,
            config, new PrintStream(printed, true, StandardCharsets.US_ASCII));
        final long allocatedBefore = Allocations.allocatedBytes(reactor.thread());
        client.open();

        assertThat(client.outcome().awaitDone(Duration.ofSeconds(30))).as("client done").isTrue();
        // Setting up, connecting and printing the result cost a few hundred KiB, whatever the count; a
        // single allocation per message would cost several MiB.
        assertThat(Allocations.allocatedBytes(reactor.thread()) - allocatedBefore)
            .as("bytes the client's reactor allocated").isLessThan(1024 * 1024);
        assertThat(client.completed()).isTrue();
        assertThat(client.outcome().closeReason()).isEqualTo(CloseReason.LOCAL_CLOSE);
        assertThat(client.laggedCount()).as("times the write buffer was full").isPositive();
        assertThat(client.elapsedNanos()).isPositive();
        assertThat(printed.toString(StandardCharsets.US_ASCII)).contains("sent 200,000 messages of 64 bytes");

        Await.until(() -> "the server to see the end of the stream, counted " + counter.messages,
            () -> counter.closed, Duration.ofSeconds(30));
        assertThat(counter.messages).isEqualTo(MESSAGES);
        assertThat(counter.malformed).isZero();
    }

    /**
     * Counts lines that are the client's message exactly, and any that are not.
     */
    private static final class CountingLineServer implements Handler
    {
        private final int size;
        private volatile int messages;
        private volatile int malformed;
        private volatile boolean closed;

        CountingLineServer(final int size)
        {
            this.size = size;
        }

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            boolean good = message.remaining() == size;
            for (int i = 0; good && i < size; i++)
            {
                good = message.get(message.position() + i) == '0' + i % 10;
            }
            if (good)
            {
                messages = messages + 1;
            }
            else
            {
                malformed = malformed + 1;
            }
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            closed = true;
        }
    }
}
