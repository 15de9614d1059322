package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;

/**
 * Per-connection event and read timeouts, on the reactor thread.
 */
class TimeoutTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void anEventTimeoutReArmedInItsCallbackBeats() throws Exception
    {
        final List<Long> beats = new CopyOnWriteArrayList<>();
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.setEventTimeout(20);
            }

            @Override
            public void eventTimeout(final Connection connection, final long nowMillis)
            {
                // The reactor's clock, which re-arming counts from: a reactor thread that waits for a core
                // between a cycle's start and this callback does not shorten the gap seen here.
                beats.add(nowMillis);
                if (beats.size() < 5)
                {
                    connection.setEventTimeout(20);
                }
            }
        };
        try (Socket socket = connectedTo(handler))
        {
            Await.until("five beats", () -> beats.size() == 5);
            Thread.sleep(100);
            assertThat(beats).as("no beat once it stops re-arming").hasSize(5);
            for (int i = 1; i < beats.size(); i++)
            {
                assertThat(beats.get(i) - beats.get(i - 1)).as("gap %d in ms", i).isGreaterThanOrEqualTo(20);
            }
        }
    }

    @Test
    void aCancelledOrReplacedEventTimeoutDoesNotFire() throws Exception
    {
        final List<Long> fired = new CopyOnWriteArrayList<>();
        final long[] openedAt = new long[1];
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                // The reactor's clock, which the timeouts count from: neither a slow test thread nor a reactor
                // thread waiting for a core shifts it.
                openedAt[0] = connection.reactor().nowMillis();
                super.opened(connection);
                connection.setEventTimeout(10);
                connection.cancelEventTimeout();
                connection.setEventTimeout(5);
                connection.setEventTimeout(60); // replaces the 5 ms one
            }

            @Override
            public void eventTimeout(final Connection connection, final long nowMillis)
            {
                fired.add(nowMillis);
            }
        };
        try (Socket socket = connectedTo(handler))
        {
            handler.awaitEvent("opened");
            Await.until("the one timeout", () -> !fired.isEmpty());
            assertThat(fired.get(0) - openedAt[0]).as("ms from opening to the timeout").isGreaterThanOrEqualTo(60);
            Thread.sleep(100);
            assertThat(fired).hasSize(1);
        }
    }

    @Test
    void aReadTimeoutFiresOnlyAfterSilence() throws Exception
    {
        // Far above the writer's 20 ms pace, so a test thread descheduled on a loaded machine is not silence;
        // the bytes keep coming for longer than one timeout.
        final long readTimeout = 1_500;
        final int writes = 80;
        final List<Long> reads = new CopyOnWriteArrayList<>();
        final List<Long> timeouts = new CopyOnWriteArrayList<>();
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.setReadTimeout(readTimeout);
            }

            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                reads.add(connection.reactor().nowMillis());
                super.message(connection, message);
            }

            @Override
            public void readTimeout(final Connection connection, final long nowMillis)
            {
                timeouts.add(nowMillis);
                connection.close();
            }
        };
        try (Socket socket = connectedTo(handler))
        {
            final OutputStream out = socket.getOutputStream();
            handler.awaitEvent("opened");
            for (int i = 0; i < writes; i++)
            {
                out.write('x');
                out.flush();
                Thread.sleep(20);
            }
            assertThat(timeouts).as("no timeout while bytes keep coming").isEmpty();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(timeouts).hasSize(1);
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
            // Measured on the reactor's clock, which stamps the reads: the test's own clock would count the
            // time this thread waited for a core.
            assertThat(timeouts.get(0) - reads.get(reads.size() - 1)).as("ms of silence before the timeout")
                .isGreaterThanOrEqualTo(readTimeout);
        }
    }

    @Test
    void aConnectThatNeverCompletesTimesOut() throws Exception
    {
        // A listener that never accepts, with its accept queue full: the kernel drops further SYNs, so a
        // connect to it hangs, on loopback.
        try (java.net.ServerSocket stuck = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            final List<Socket> fillers = new java.util.ArrayList<>();
            try
            {
                for (int i = 0; i < 4; i++)
                {
                    final Socket filler = new Socket();
                    fillers.add(filler);
                    filler.connect(new java.net.InetSocketAddress("127.0.0.1", stuck.getLocalPort()), 200);
                }
            }
            catch (final java.net.SocketTimeoutException full)
            {
                // the queue is full
            }
            final RecordingHandler handler = new RecordingHandler();
            new TcpClient(reactors.start("client"), "127.0.0.1", stuck.getLocalPort(),
                new TcpConfig().connectTimeoutMillis(200), handler).open();
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.CONNECT_FAILED);
            assertThat(handler.errors).singleElement().extracting(Throwable::getMessage).asString()
                .contains("timed out after 200 ms");
            for (final Socket filler : fillers)
            {
                filler.close();
            }
        }
    }

    @Test
    void aSilentPeerFailsAClientWithReadTimeoutAndItReconnects() throws Exception
    {
        // A server that accepts and never says a word, then answers once the client has come back.
        final List<Connection> accepted = new CopyOnWriteArrayList<>();
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1"),
            new Handler()
            {
                @Override
                public void opened(final Connection connection)
                {
                    accepted.add(connection);
                    if (accepted.size() == 2)
                    {
                        connection.send("hello\n");
                    }
                }
            }).open();
        final RecordingHandler handler = new RecordingHandler();
        new TcpClient(reactors.start("client"), "127.0.0.1", server.port(), new TcpConfig()
            .framing(() -> new io.celer.framing.LineFraming(64))
            .readTimeoutMillis(200).reconnectDelayMillis(50), handler).open();
        handler.awaitEvent("closed:READ_TIMEOUT");
        assertThat(handler.errors).first().extracting(Throwable::getMessage).asString()
            .contains("nothing heard from the peer for").contains("readTimeoutMillis 200");
        assertThat(handler.nextMessage()).isEqualTo("hello");
        assertThat(handler.events.stream().filter(e -> !e.startsWith("error:")))
            .startsWith("opened", "closed:READ_TIMEOUT", "opened");
        assertThat(accepted).hasSize(2);
    }

    @Test
    void bytesKeepTheReadTimeoutAwayAndAHandlersOwnReadTimeoutTakesItOver() throws Exception
    {
        final List<Long> silences = new CopyOnWriteArrayList<>();
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                super.message(connection, message);
                if (messages.size() == 5)
                {
                    connection.setReadTimeout(100); // from now on the handler hears of silence; nothing closes
                }
            }

            @Override
            public void readTimeout(final Connection connection, final long nowMillis)
            {
                silences.add(nowMillis);
            }
        };
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new io.celer.framing.LineFraming(64)).readTimeoutMillis(300), handler).open();
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            final OutputStream out = socket.getOutputStream();
            for (int i = 0; i < 5; i++)
            {
                out.write(("beat " + i + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                Thread.sleep(150); // half the timeout between bytes: never silent long enough
            }
            Await.until("three silences told to the handler", () -> silences.size() >= 3);
            assertThat(handler.events).containsExactly("opened");
            assertThat(handler.errors).isEmpty();
        }
    }

    /**
     * A plain socket connected to a loopback server of the handler.
     */
    private Socket connectedTo(final Handler handler) throws IOException
    {
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1"),
            handler).open();
        return new Socket("127.0.0.1", server.port());
    }
}
