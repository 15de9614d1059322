package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.test.Await;
import io.celer.test.Reactors;

class WritableTest
{
    private static final int MESSAGE = 1024;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * A write is refused, and the socket drains before the end-of-cycle flush runs: that flush empties the
     * write buffer, and the handler, waiting to write again, must still hear of the freed space.
     */
    @Test
    void toldOfFreedSpaceWhenTheEndOfCycleFlushDrainsALaggingBuffer() throws Exception
    {
        final CountDownLatch refused = new CountDownLatch(1);
        final CountDownLatch drained = new CountDownLatch(1);
        final AtomicLong inFlight = new AtomicLong();
        final AtomicBoolean lagging = new AtomicBoolean();
        final AtomicInteger freed = new AtomicInteger(-1);
        final byte[] message = new byte[MESSAGE];

        final Handler handler = new Handler()
        {
            @Override
            public void opened(final Connection connection)
            {
                long written = 0;
                while (connection.write(message))
                {
                    written += MESSAGE;
                }
                lagging.set(connection.isLagging());
                inFlight.set(written - (connection.writeBufferCapacity() - connection.writeBufferRemaining()));
                refused.countDown();
                try
                {
                    // Hold the reactor while the peer reads all the kernel holds, so the flush that ends this
                    // cycle finds room for the whole write buffer.
                    drained.await(30, TimeUnit.SECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void writable(final Connection connection, final int freeBytes)
            {
                freed.set(freeBytes);
            }
        };
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig()
            .bindAddress("127.0.0.1")
            .writeBufferSize(4 * MESSAGE)
            .socketSendBufferSize(8 * 1024)
            .disconnectOnFullWriteBuffer(false), handler).open();

        try (Socket peer = new Socket())
        {
            peer.setReceiveBufferSize(8 * 1024);
            peer.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            peer.setSoTimeout(10_000);
            assertThat(refused.await(10, TimeUnit.SECONDS)).as("a write refused").isTrue();
            assertThat(lagging.get()).isTrue();
            final long toRead = inFlight.get();
            final InputStream in = peer.getInputStream();
            final byte[] chunk = new byte[8 * 1024];
            long read = 0;
            while (read < toRead)
            {
                final int n = in.read(chunk, 0, (int)Math.min(chunk.length, toRead - read));
                assertThat(n).as("bytes from the server").isPositive();
                read += n;
            }
            drained.countDown();

            Await.until("writable", () -> freed.get() >= 0, Duration.ofSeconds(10));
            assertThat(freed.get()).isEqualTo(4 * MESSAGE);
        }
    }
}
