package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;

/**
 * A peer that stops reading cannot hold a connection: once the socket has taken none of the waiting bytes for the
 * send timeout, the connection closes with {@link CloseReason#SEND_TIMEOUT}; a peer that reads, however slowly,
 * keeps it.
 */
class SendTimeoutTest
{
    private static final int MESSAGE = 1024;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** Writes until the buffer is full, then again each time the socket takes some. */
    private static final class Flooder extends RecordingHandler
    {
        final AtomicLong written = new AtomicLong();
        private final byte[] message = new byte[MESSAGE];

        @Override
        public void opened(final Connection connection)
        {
            super.opened(connection);
            fill(connection);
        }

        @Override
        public void writable(final Connection connection, final int freeBytes)
        {
            fill(connection);
        }

        private void fill(final Connection connection)
        {
            while (connection.write(message))
            {
                written.addAndGet(MESSAGE);
            }
        }
    }

    private TcpServer server(final Flooder handler, final long sendTimeoutMillis)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .writeBufferSize(16 * MESSAGE)
            .socketSendBufferSize(8 * 1024)
            .disconnectOnFullWriteBuffer(false)
            .sendTimeoutMillis(sendTimeoutMillis), handler).open();
    }

    private static Socket peer(final int port) throws IOException
    {
        final Socket peer = new Socket();
        peer.setReceiveBufferSize(4 * 1024);
        peer.connect(new InetSocketAddress("127.0.0.1", port));
        return peer;
    }

    @Test
    void aPeerThatStopsReadingIsClosedAfterTheSendTimeout() throws Exception
    {
        final Flooder handler = new Flooder();
        final TcpServer server = server(handler, 300);
        try (Socket peer = peer(server.port()))
        {
            final long start = System.nanoTime();
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.SEND_TIMEOUT);
            assertThat((System.nanoTime() - start) / 1_000_000).as("ms until closed").isGreaterThanOrEqualTo(250);
            assertThat(handler.errors).singleElement().extracting(Throwable::getMessage).asString()
                .contains("took none of the bytes");
        }
    }

    @Test
    void aPeerThatReadsSlowlyKeepsItsConnection() throws Exception
    {
        final Flooder handler = new Flooder();
        // A second: twenty times the reads' pace, so that a test thread held off its CPU for a while on a loaded
        // machine does not look like a peer that stopped.
        final TcpServer server = server(handler, 1_000);
        try (Socket peer = peer(server.port()))
        {
            final InputStream in = peer.getInputStream();
            final byte[] chunk = new byte[4096];
            final long end = System.nanoTime() + 3_000_000_000L; // three send timeouts
            long read = 0;
            while (System.nanoTime() < end)
            {
                read += Math.max(0, in.read(chunk));
                Thread.sleep(50); // slower than the server writes, far faster than the timeout
            }
            assertThat(read).isPositive();
            assertThat(handler.events).as("still open after three timeouts of slow reading")
                .doesNotContain("closed:SEND_TIMEOUT");
        }
    }

    @Test
    void zeroNeverClosesAndANegativeTimeoutIsRefused() throws Exception
    {
        assertThatThrownBy(() -> new TcpConfig().sendTimeoutMillis(-1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sendTimeoutMillis");
        final Flooder handler = new Flooder();
        final TcpServer server = server(handler, 0);
        try (Socket peer = peer(server.port()))
        {
            handler.awaitEvent("opened");
            Thread.sleep(500); // a negative check: no timeout is armed
            assertThat(handler.events).containsExactly("opened");
            assertThat(peer.getInputStream().read(new byte[MESSAGE])).isPositive();
        }
    }
}
