package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;

/**
 * A close with bytes still buffered for a peer that is not reading lingers: the bytes all go out once the peer
 * reads, then the connection closes; a peer that never reads is given up on after the linger time. A close with
 * input still unread lingers too, reading and dropping it, so that no reset overtakes the last reply.
 */
class LingeringCloseTest
{
    private static final int MESSAGE = 1024;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** Fills the write buffer as it opens, then closes: most of it is still buffered. */
    private static final class FillAndClose extends RecordingHandler
    {
        final AtomicLong written = new AtomicLong();
        final CountDownLatch closeCalled = new CountDownLatch(1);

        @Override
        public void opened(final Connection connection)
        {
            super.opened(connection);
            final byte[] message = new byte[MESSAGE];
            long bytes = 0;
            while (connection.write(message))
            {
                bytes += MESSAGE;
            }
            written.set(bytes);
            connection.close();
            events.add(connection.isOpen() ? "open after close" : "closing");
            closeCalled.countDown();
        }
    }

    private TcpServer server(final FillAndClose handler, final long lingerMillis)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .writeBufferSize(256 * MESSAGE)
            .socketSendBufferSize(8 * 1024)
            .disconnectOnFullWriteBuffer(false)
            .closeLingerMillis(lingerMillis), handler).open();
    }

    private static Socket slowPeer(final int port) throws IOException
    {
        final Socket peer = new Socket();
        peer.setReceiveBufferSize(4 * 1024);
        peer.connect(new InetSocketAddress("127.0.0.1", port));
        return peer;
    }

    @Test
    void theBufferedBytesAllGoOutBeforeTheClose() throws Exception
    {
        final FillAndClose handler = new FillAndClose();
        final TcpServer server = server(handler, 30_000);
        try (Socket peer = slowPeer(server.port()))
        {
            assertThat(handler.closeCalled.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(handler.events).contains("closing");
            // A negative check: while the peer does not read, the connection waits.
            assertThat(handler.events).doesNotContain("closed:LOCAL_CLOSE");
            Thread.sleep(300);
            assertThat(handler.events).as("still lingering").doesNotContain("closed:LOCAL_CLOSE");

            final long received = drain(peer.getInputStream());
            assertThat(received).as("every byte written before the close").isEqualTo(handler.written.get())
                .isGreaterThan(64L * MESSAGE);
        }
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
    }

    @Test
    void aPeerThatNeverReadsIsGivenUpOnAfterTheLingerTime() throws Exception
    {
        final FillAndClose handler = new FillAndClose();
        final TcpServer server = server(handler, 200);
        try (Socket peer = slowPeer(server.port()))
        {
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
            long received;
            try
            {
                received = drain(peer.getInputStream());
            }
            catch (final IOException reset)
            {
                received = -1; // the dropped bytes may end in a reset instead of a FIN
            }
            assertThat(received).as("the bytes the socket never took were dropped").isLessThan(handler.written.get());
        }
    }

    /** Answers the first bytes with a goodbye and closes, as a server refusing an oversized request does. */
    private static final class ByeOnFirstRead extends RecordingHandler
    {
        @Override
        public void message(final Connection connection, final java.nio.ByteBuffer message)
        {
            message.position(message.limit());
            if (connection.isOpen())
            {
                connection.send("bye");
                connection.close();
            }
        }
    }

    private TcpServer byeServer(final ByeOnFirstRead handler, final long lingerMillis)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .closeLingerMillis(lingerMillis), handler).open();
    }

    @Test
    void aPeerStillSendingWhenTheServerClosesGetsTheLastReplyAndNoReset() throws Exception
    {
        final ByeOnFirstRead handler = new ByeOnFirstRead();
        final TcpServer server = byeServer(handler, 30_000);
        for (int round = 0; round < 3; round++)
        {
            try (Socket peer = new Socket("127.0.0.1", server.port()))
            {
                peer.setSoTimeout(30_000);
                // Far more than the receiving side can hold before the server reads on after its close: both
                // sockets' buffers (the receiver's grows to megabytes while it keeps up) and, on io_uring,
                // the provided buffers the kernel fills ahead of the reads. A socket closed with unread input
                // answers with a reset, so this write ends only if the close lingers.
                peer.getOutputStream().write(new byte[64 << 20]);
                assertThat(handler.events).as("heard at the close, before the input was drained")
                    .contains("closed:LOCAL_CLOSE");
                final byte[] bye = peer.getInputStream().readNBytes(3);
                assertThat(new String(bye, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("bye");
                assertThat(peer.getInputStream().read()).as("the server's end of stream").isEqualTo(-1);
            }
        }
    }

    @Test
    void aPeerThatKeepsSendingAfterTheCloseIsCutOffAfterTheLingerTime() throws Exception
    {
        final ByeOnFirstRead handler = new ByeOnFirstRead();
        final TcpServer server = byeServer(handler, 300);
        try (Socket peer = new Socket("127.0.0.1", server.port()))
        {
            final long start = System.nanoTime();
            // Each write larger than the server's read buffer, so that the peer is still sending when the
            // server, its first read done, closes; smaller ones may leave it idle between two at that moment.
            final byte[] chunk = new byte[1024 * 1024];
            long sent = 0;
            try
            {
                // Bounded: the server reads and drops for 300 ms, then closes with a reset.
                while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60))
                {
                    peer.getOutputStream().write(chunk);
                    sent += chunk.length;
                }
            }
            catch (final IOException cutOff)
            {
                // expected: the linger ran out
            }
            assertThat(System.nanoTime() - start).as("cut off long before the loop's own bound")
                .isLessThan(TimeUnit.SECONDS.toNanos(30));
            assertThat(sent).as("the server read on after its close").isGreaterThan(16L << 20);
        }
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
    }

    private static long drain(final InputStream in) throws IOException
    {
        final byte[] chunk = new byte[16 * 1024];
        long total = 0;
        for (int n = in.read(chunk); n >= 0; n = in.read(chunk))
        {
            total += n;
        }
        return total;
    }
}
