package io.celer.tls;

import static io.celer.test.Sockets.lineReader;
import static io.celer.test.Sockets.sendLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Transports;

/**
 * Idle TLS connections hold no record buffers: two hundred of them, after one exchange each, leave every buffer
 * in the reactor threads' pools, and the memory they keep is their engines' state. Two hundred, not more: each
 * costs a full handshake with a JDK client, and the suite runs this over three transports.
 */
class TlsIdleMemoryTest
{
    private static final int CONNECTIONS = 200;
    private static final int BATCH = 50;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void twoHundredIdleTlsConnectionsHoldNoRecordBuffers() throws Exception
    {
        final Reactor serverReactor = reactors.start("server");
        final TcpServer server = new TcpServer(serverReactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(1024)).transport(Transports.TLS.server()), new RecordingHandler(true))
            .open();
        final List<Socket> clients = new ArrayList<>();
        try
        {
            exchange(server.port(), clients, 10); // warms the JDK's TLS classes and caches up
            final long before = retainedBytes();
            exchange(server.port(), clients, CONNECTIONS);
            Await.until("every connection open on the server", () -> server.connectionCount() == CONNECTIONS + 10);

            assertThat(OnReactor.get(serverReactor, () -> TlsBuffers.ofThisThread().lent()))
                .as("record buffers lent on the server's thread with every connection idle").isZero();
            final long perPair = (retainedBytes() - before) / CONNECTIONS;
            // The client side is the JDK's SSLSocket, the same with or without Celer's change: compare runs.
            System.out.printf("%d idle TLS connections: %d bytes of heap and direct memory per connection, " +
                "the Celer server's side and a JDK SSLSocket client's together%n", CONNECTIONS, perPair);
        }
        finally
        {
            for (final Socket client : clients)
            {
                client.close();
            }
        }
        Await.until("every connection closed", () -> server.connectionCount() == 0);
        assertThat(OnReactor.get(serverReactor, () -> TlsBuffers.ofThisThread().lent())).isZero();
    }

    /**
     * Opens TLS connections one after the other, each with one line there and back, and keeps them open.
     */
    private static void exchange(final int port, final List<Socket> clients, final int count) throws Exception
    {
        for (int i = 0; i < count; i++)
        {
            final Socket plain = new Socket("127.0.0.1", port);
            plain.setSoTimeout(30_000);
            final Socket tls = Transports.TLS.over(plain);
            clients.add(tls);
            sendLine(tls, "hello " + i);
            assertThat(lineReader(tls).readLine()).isEqualTo("hello " + i);
        }
    }

    /**
     * Heap in use after a collection, and direct buffers' memory.
     */
    static long retainedBytes() throws InterruptedException
    {
        for (int i = 0; i < 3; i++)
        {
            System.gc();
            Thread.sleep(100);
        }
        long direct = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if ("direct".equals(pool.getName()))
            {
                direct = pool.getMemoryUsed();
            }
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() + direct;
    }
}
