package io.celer.examples.wsfeed;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpConfig;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;

/**
 * A Celer client of the feed that stops reading as soon as it opens, with small buffers so that the server's
 * side fills soon, until told to read again; then it checks its sequence numbers (in order, counting the gaps)
 * and hears a close frame's code. Counts are written on its reactor and read by the test.
 */
final class PausedReader implements WebSocketHandler
{
    private final CountDownLatch opened = new CountDownLatch(1);
    private final Reactor reactor;
    private Connection connection;
    private long expected;
    volatile long received;
    volatile long gaps;
    volatile long backwards;
    volatile int closeCode = -1;

    private PausedReader(final Reactor reactor)
    {
        this.reactor = reactor;
    }

    /**
     * Connects one, paused once open.
     *
     * @param reactor the client reactor.
     * @param port    the feed's port.
     * @return the reader.
     * @throws InterruptedException if interrupted while waiting for it to open.
     */
    static PausedReader connect(final Reactor reactor, final int port) throws InterruptedException
    {
        final PausedReader reader = new PausedReader(reactor);
        new WebSocketClient(reactor, "ws://127.0.0.1:" + port + "/feed", new WebSocketConfig(), reader)
            .tcp(new TcpConfig().readBufferSize(4096).socketReceiveBufferSize(4096)).open();
        if (!reader.opened.await(30, TimeUnit.SECONDS))
        {
            throw new AssertionError("the paused reader did not open");
        }
        return reader;
    }

    /**
     * Reads again.
     */
    void resume()
    {
        reactor.call(connection::resumeReads);
    }

    @Override
    public void opened(final WebSocket socket)
    {
        connection = socket.connection();
        connection.pauseReads();
        opened.countDown();
    }

    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        final long sequence = FeedText.sequence(message);
        if (sequence > expected)
        {
            gaps++;
        }
        else if (sequence < expected)
        {
            backwards++;
        }
        expected = sequence + 1;
        received++;
    }

    @Override
    public void closing(final WebSocket socket, final int code, final Utf8Text reason)
    {
        closeCode = code;
    }
}
