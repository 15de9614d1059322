package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
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
                beats.add(System.nanoTime());
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
                assertThat((beats.get(i) - beats.get(i - 1)) / 1_000_000).as("gap %d in ms", i)
                    .isGreaterThanOrEqualTo(19);
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
                openedAt[0] = System.nanoTime(); // on the reactor thread: a slow test thread does not shift it
                super.opened(connection);
                connection.setEventTimeout(10);
                connection.cancelEventTimeout();
                connection.setEventTimeout(5);
                connection.setEventTimeout(60); // replaces the 5 ms one
            }

            @Override
            public void eventTimeout(final Connection connection, final long nowMillis)
            {
                fired.add(System.nanoTime());
            }
        };
        try (Socket socket = connectedTo(handler))
        {
            handler.awaitEvent("opened");
            Await.until("the one timeout", () -> !fired.isEmpty());
            assertThat((fired.get(0) - openedAt[0]) / 1_000_000).isGreaterThanOrEqualTo(50);
            Thread.sleep(100);
            assertThat(fired).hasSize(1);
        }
    }

    @Test
    void aReadTimeoutFiresOnlyAfterSilence() throws Exception
    {
        final List<Long> timeouts = new CopyOnWriteArrayList<>();
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                // Far above the writer's 20 ms pace, so a descheduled test thread on a loaded machine is not silence.
                connection.setReadTimeout(600);
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
            for (int i = 0; i < 20; i++)
            {
                out.write('x');
                out.flush();
                Thread.sleep(20);
            }
            assertThat(timeouts).as("no timeout while bytes keep coming").isEmpty();
            final long silentFrom = System.nanoTime();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat((System.nanoTime() - silentFrom) / 1_000_000).isGreaterThanOrEqualTo(400);
            assertThat(timeouts).hasSize(1);
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
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
