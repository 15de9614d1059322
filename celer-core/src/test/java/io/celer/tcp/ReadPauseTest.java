package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Transports;

/**
 * Pausing reads: nothing delivered while paused, nothing lost or reordered after, the peer held back by TCP
 * flow control; over plain TCP and TLS.
 */
class ReadPauseTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Records messages and pauses itself on the line {@code pause}.
     */
    private static final class PausingHandler extends RecordingHandler
    {
        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            final boolean pause = StandardCharsets.US_ASCII.decode(message.duplicate()).toString().equals("pause");
            super.message(connection, message);
            if (pause)
            {
                connection.pauseReads();
            }
        }
    }

    private TcpServer server(final Reactor reactor, final Transports transport, final Handler handler,
        final boolean busyPoll)
    {
        return new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1").busyPoll(busyPoll)
            .framing(() -> new LineFraming(1024)).transport(transport.server()), handler).open();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aPausedConnectionDeliversNothingUntilResumedThenEverythingInOrder(final Transports transport)
        throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final PausingHandler handler = new PausingHandler();
        final TcpServer server = server(reactor, transport, handler, false);
        try (Socket socket = transport.connect("127.0.0.1", server.port()))
        {
            final OutputStream out = socket.getOutputStream();
            // One write: the lines after "pause" arrive in the same read and must wait in the read buffer.
            out.write("a\npause\nb\nc\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(handler.nextMessage()).isEqualTo("a");
            assertThat(handler.nextMessage()).isEqualTo("pause");
            out.write("d\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(handler.messages.poll(300, TimeUnit.MILLISECONDS)).as("a message while paused").isNull();
            assertThat(OnReactor.get(reactor, () -> handler.connection.isReadPaused())).isTrue();

            reactor.call(() -> handler.connection.resumeReads());
            assertThat(handler.nextMessage()).isEqualTo("b");
            assertThat(handler.nextMessage()).isEqualTo("c");
            assertThat(handler.nextMessage()).isEqualTo("d");
            assertThat(OnReactor.get(reactor, () -> handler.connection.isReadPaused())).isFalse();
            out.write("e\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(handler.nextMessage()).isEqualTo("e");
        }
        assertThat(handler.errors).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aPausedReaderHoldsThePeerBackAndLosesNothing(final Transports transport) throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final AtomicLong lines = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        final Handler counting = new Handler()
        {
            @Override
            public void opened(final Connection connection)
            {
                connection.pauseReads();
            }

            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                long value = 0;
                while (message.hasRemaining())
                {
                    value = value * 10 + (message.get() - '0');
                }
                if (value != lines.get())
                {
                    outOfOrder.incrementAndGet();
                }
                lines.incrementAndGet();
            }
        };
        final List<Connection> opened = new ArrayList<>();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)).transport(transport.server()), new Handler()
            {
                @Override
                public void opened(final Connection connection)
                {
                    opened.add(connection);
                    counting.opened(connection);
                }

                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    counting.message(connection, message);
                }
            }).open();

        final int total = 4_000_000; // about 30 MB of numbered lines: more than both kernel buffers hold
        final AtomicLong written = new AtomicLong();
        final AtomicBoolean writerFailed = new AtomicBoolean();
        try (Socket socket = transport.connect("127.0.0.1", server.port()))
        {
            final Thread writer = new Thread(() ->
            {
                try
                {
                    final OutputStream out = new java.io.BufferedOutputStream(socket.getOutputStream(), 8192);
                    for (int i = 0; i < total; i++)
                    {
                        out.write((i + "\n").getBytes(StandardCharsets.US_ASCII));
                        written.incrementAndGet();
                    }
                    out.flush();
                }
                catch (final IOException ex)
                {
                    writerFailed.set(true);
                }
            }, "paused-peer-writer");
            writer.setDaemon(true);
            writer.start();

            // The writer stalls: nobody reads, so its socket's buffers fill and its writes block.
            Await.until(() -> "the writer to stall, at " + written.get(), () -> stalled(written), Duration.ofSeconds(60));
            assertThat(written.get()).isLessThan(total);
            assertThat(lines.get()).as("lines delivered while paused").isZero();

            reactor.call(() -> opened.get(0).resumeReads());
            writer.join(TimeUnit.MINUTES.toMillis(3));
            Await.until(() -> "all lines, at " + lines.get(), () -> lines.get() == total, Duration.ofSeconds(120));
        }
        assertThat(writerFailed.get()).isFalse();
        assertThat(outOfOrder.get()).isZero();
    }

    @Test
    void pausingABusyPolledConnectionStopsPollingIt() throws Exception
    {
        final Reactor reactor = reactors.start(new ReactorConfig().name("server"));
        final PausingHandler handler = new PausingHandler();
        final TcpServer server = server(reactor, Transports.PLAIN, handler, true);
        try (Socket socket = Transports.PLAIN.connect("127.0.0.1", server.port()))
        {
            final OutputStream out = socket.getOutputStream();
            out.write("pause\nafter\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(handler.nextMessage()).isEqualTo("pause");
            assertThat(OnReactor.get(reactor, reactor.internals()::pollerCount)).isZero();
            assertThat(handler.messages.poll(200, TimeUnit.MILLISECONDS)).isNull();

            reactor.call(() -> handler.connection.resumeReads());
            assertThat(handler.nextMessage()).isEqualTo("after");
            assertThat(OnReactor.get(reactor, reactor.internals()::pollerCount)).isEqualTo(1);
        }
    }

    @Test
    void theReadTimeoutWaitsWhileReadsArePaused() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final AtomicInteger timeouts = new AtomicInteger();
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.setReadTimeout(100);
                connection.pauseReads();
            }

            @Override
            public void readTimeout(final Connection connection, final long nowMillis)
            {
                timeouts.incrementAndGet();
            }
        };
        final TcpServer server = server(reactor, Transports.PLAIN, handler, false);
        try (Socket ignored = Transports.PLAIN.connect("127.0.0.1", server.port()))
        {
            handler.awaitEvent("opened");
            Thread.sleep(600);
            assertThat(timeouts.get()).as("read timeouts while paused").isZero();
            reactor.call(() -> handler.connection.resumeReads());
            Await.until("a read timeout after resuming", () -> timeouts.get() > 0);
        }
    }

    private static boolean stalled(final AtomicLong written) throws RuntimeException
    {
        final long before = written.get();
        try
        {
            Thread.sleep(500);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return before > 0 && written.get() == before;
    }
}
