package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.LiveHeap;
import io.celer.test.Reactors;

/**
 * What an idle plain connection keeps of Celer's on the server's heap, counted by class in the JVM's histogram
 * after one exchange: its connection object (its read and write state and its timers' too) and its place in
 * the server's table, and none of what only some use (a handshake's state, a framing of its own when the
 * framing holds no state). On a native transport the transport's objects count too: one, the accepted stream
 * socket that is its own key (on io_uring with the ring's state for it).
 */
class IdleFootprintTest
{
    private static final int CONNECTIONS = 500;
    /**
     * Celer's bytes per idle connection at most, the native transports' objects included, by the transport the
     * run uses ({@code -Dceler.transport}): about 175 on NIO, 250 on epoll and 295 on io_uring as measured on
     * JDK 25 with compressed pointers. Each bound has room for a JDK whose object layout differs, not for a part
     * made per connection that an idle one does not use.
     */
    private static final Map<String, Long> MAX_BYTES_PER_CONNECTION = Map.of("nio", 200L, "epoll", 272L,
        "uring", 320L);
    private static final String TRANSPORT = System.getProperty("celer.transport", "nio");

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** Echoes what it reads. */
    private static final class Echo implements Handler
    {
        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            connection.write(message);
        }
    }

    @Test
    void anIdlePlainConnectionKeepsOnlyItsConnectionAndTheTransportsObjects() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), new Echo())
            .open();
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
        final List<Socket> clients = new ArrayList<>();
        try
        {
            exchange(address, clients, 20); // loads and compiles what a connection's first exchange needs
            final Map<String, Long> before = LiveHeap.bytesByClass("io.celer.");
            exchange(address, clients, CONNECTIONS);
            Await.until("every connection open on the server", () -> server.connectionCount() == clients.size());
            final Map<String, Long> perConnection =
                LiveHeap.growthPer(before, LiveHeap.bytesByClass("io.celer."), CONNECTIONS);
            perConnection.keySet().removeIf(name -> name.startsWith(IdleFootprintTest.class.getName()));
            final long total = perConnection.values().stream().mapToLong(Long::longValue).sum();
            System.out.printf("an idle plain connection keeps %d bytes of Celer's objects: %s%n", total,
                perConnection);

            assertThat(perConnection).as("a plain connection has no handshake")
                .doesNotContainKey(ConnectionHandshake.class.getName());
            assertThat(perConnection).as("a framing without state is shared")
                .doesNotContainKey(io.celer.framing.RawFraming.class.getName());
            assertThat(total).as("Celer's bytes per idle connection on %s: %s", TRANSPORT, perConnection)
                .isLessThanOrEqualTo(MAX_BYTES_PER_CONNECTION.get(TRANSPORT));
            if (!TRANSPORT.equals("nio"))
            {
                assertThat(perConnection.keySet()).as("an accepted connection is one object on %s", TRANSPORT)
                    .contains(TRANSPORT.equals("epoll") ? "io.celer.linux.nio.EpollStream"
                        : "io.celer.linux.nio.UringStream")
                    .doesNotContain("io.celer.linux.nio.EpollSocketChannel", "io.celer.linux.nio.EpollSelectionKey",
                        "io.celer.linux.nio.UringChannelKey", "io.celer.linux.nio.NativeSocket");
            }
        }
        finally
        {
            for (final Socket client : clients)
            {
                client.close();
            }
        }
        Await.until("every connection closed", () -> server.connectionCount() == 0);
    }

    /**
     * Opens connections one after the other, each with one message there and back, and keeps them open.
     */
    private static void exchange(final InetSocketAddress address, final List<Socket> clients, final int count)
        throws IOException
    {
        final byte[] ping = "ping".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < count; i++)
        {
            final Socket client = new Socket(address.getAddress(), address.getPort());
            clients.add(client);
            client.setSoTimeout(30_000);
            client.getOutputStream().write(ping);
            final InputStream in = client.getInputStream();
            int read = 0;
            while (read < ping.length)
            {
                final int n = in.read(new byte[ping.length - read]);
                if (n < 0)
                {
                    throw new IOException("closed by the server");
                }
                read += n;
            }
        }
    }
}
