package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.OnReactor;

class TimeBeatServerTest
{
    private static final long PERIOD_MILLIS = 50;
    private static final int BEATS = 8;

    @RegisterExtension
    final Loopback loopback = new Loopback();

    @Test
    void beatsAtThePeriodUntilTheClientLeaves() throws Exception
    {
        final Reactor reactor = loopback.reactor("time-beat");
        final TcpServer server = new TcpServer(reactor, 0, Loopback.config(), new TimeBeatServer(PERIOD_MILLIS)).open();
        final long[] arrivals = new long[BEATS];
        final long connecting = System.nanoTime();
        try (Socket socket = new Socket("127.0.0.1", server.localAddress().getPort()))
        {
            socket.setSoTimeout(30_000);
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            for (int i = 0; i < BEATS; i++)
            {
                final long secondsSince1900 = in.readInt() & 0xFFFF_FFFFL;
                arrivals[i] = System.nanoTime();
                final long now = System.currentTimeMillis() / 1000 + 2_208_988_800L;
                assertThat(secondsSince1900).isBetween(now - 5, now + 1);
            }
        }

        // Loose bounds, as arrivals are stamped when this thread gets to read them: a timer never fires
        // early, but a busy machine may run the reader, or the timer, late. Counted from before connecting, as the
        // first beat goes once the server has accepted: from the first arrival, a reader run late would read the
        // first beats together and see them closer than they were sent.
        final long spanMillis = TimeUnit.NANOSECONDS.toMillis(arrivals[BEATS - 1] - connecting);
        final long intervals = BEATS - 1;
        assertThat(spanMillis).isBetween(intervals * PERIOD_MILLIS / 2, intervals * PERIOD_MILLIS * 20);

        // The beat dies with the connection.
        Await.until("the server to drop the connection", () -> OnReactor.get(reactor, server::connectionCount) == 0,
            Duration.ofSeconds(30));
    }
}
