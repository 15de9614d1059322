package io.celer.tcp;

import static io.celer.test.Sockets.ask;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.test.Await;
import io.celer.test.Reactors;

/**
 * A {@link TcpServer} on a {@link ReactorGroup}: every reactor serves clients, each connection lives on one
 * reactor's thread with that reactor's handler, and the limit, the close and a failed bind hold for the whole.
 */
class GroupServerTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void closeClients() throws IOException
    {
        for (final Socket client : clients)
        {
            client.close();
        }
    }

    /** Echoes lines prefixed with the name of the thread that ran it, and checks it runs on its own reactor. */
    private static final class ThreadEcho implements Handler
    {
        final Reactor reactor;
        final Map<Long, String> threadOfConnection;

        ThreadEcho(final Reactor reactor, final Map<Long, String> threadOfConnection)
        {
            this.reactor = reactor;
            this.threadOfConnection = threadOfConnection;
        }

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            final String thread = Thread.currentThread().getName();
            final String first = threadOfConnection.putIfAbsent(connection.id(), thread);
            final boolean right = reactor.isReactorThread() && connection.reactor() == reactor &&
                (first == null || first.equals(thread));
            final byte[] line = (right ? thread : "WRONG " + thread).getBytes(StandardCharsets.US_ASCII);
            final ByteBuffer reply = ByteBuffer.allocate(line.length + 1).put(line).put((byte)'\n').flip();
            connection.send(reply);
        }
    }

    private TcpServer echoServer(final ReactorGroup group, final TcpConfig config, final List<Reactor> asked,
        final Map<Long, String> threadOfConnection)
    {
        return new TcpServer(group, 0, config.bindAddress("127.0.0.1").framing(() -> new LineFraming(64)),
            reactor ->
            {
                asked.add(reactor);
                return new ThreadEcho(reactor, threadOfConnection);
            }).open();
    }

    private Socket connect(final int port) throws IOException
    {
        final Socket client = new Socket("127.0.0.1", port);
        client.setSoTimeout(30_000);
        clients.add(client);
        return client;
    }


    private static Map<String, Integer> spread(final List<String> threads)
    {
        final Map<String, Integer> counts = new ConcurrentHashMap<>();
        for (final String thread : threads)
        {
            counts.merge(thread, 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void withReusePortEveryReactorListensAndServesItsOwnConnections() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("port", 2);
        final List<Reactor> asked = new ArrayList<>();
        final Map<Long, String> threadOfConnection = new ConcurrentHashMap<>();
        final TcpServer server = echoServer(group, new TcpConfig(), asked, threadOfConnection);
        assertThat(asked).as("one handler per reactor").containsExactly(group.reactor(0), group.reactor(1));
        assertThat(server.reactorCount()).isEqualTo(2);

        final List<String> served = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            final Socket client = connect(server.port());
            final String thread = ask(client, "hello", 30_000);
            assertThat(ask(client, "again", 30_000)).as("a connection stays on its reactor").isEqualTo(thread);
            served.add(thread);
        }
        assertThat(served).allMatch(thread -> thread.startsWith("port-"));
        // The kernel hashes each client's port: 40 clients all on one reactor would be a chance of 2^-39.
        assertThat(spread(served).keySet()).containsExactlyInAnyOrder("port-0", "port-1");
        Await.until("every connection counted", () -> server.connectionCount() == 40);
        assertThat(server.connectionsOn(0) + server.connectionsOn(1)).isEqualTo(40);
    }

    @Test
    void leastLoadedSpreadsConnectionsEvenlyThroughOneAcceptor() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("even", 2);
        final TcpServer server = echoServer(group, new TcpConfig().acceptSpread(TcpConfig.AcceptSpread.LEAST_LOADED),
            new ArrayList<>(), new ConcurrentHashMap<>());
        final List<String> served = new ArrayList<>();
        for (int i = 0; i < 20; i++)
        {
            final Socket client = connect(server.port());
            final String thread = ask(client, "hello", 30_000);
            assertThat(ask(client, "again", 30_000)).isEqualTo(thread);
            served.add(thread);
        }
        assertThat(spread(served)).containsEntry("even-0", 10).containsEntry("even-1", 10);

        // Closing the connections of one reactor sends the next ones there.
        for (int i = 0; i < served.size(); i++)
        {
            if (served.get(i).equals("even-1"))
            {
                clients.get(i).close();
            }
        }
        Await.until("the closes seen", () -> server.connectionCount() == 10);
        for (int i = 0; i < 4; i++)
        {
            assertThat(ask(connect(server.port()), "refill", 30_000)).isEqualTo("even-1");
        }
    }

    @Test
    void theLimitHoldsForTheWholeGroup() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("limit", 2);
        final TcpServer server = echoServer(group, new TcpConfig().maxConnections(4)
            .overLimit(TcpConfig.OverLimit.CLOSE).acceptSpread(TcpConfig.AcceptSpread.LEAST_LOADED),
            new ArrayList<>(), new ConcurrentHashMap<>());
        for (int i = 0; i < 4; i++)
        {
            assertThat(ask(connect(server.port()), "in", 30_000)).startsWith("limit-");
        }
        final Socket over = connect(server.port());
        assertThat(over.getInputStream().read()).as("closed at once").isEqualTo(-1);
        Await.until("one refused", () -> server.refusedConnections() == 1);

        clients.get(1).close(); // on the other reactor than the accepting one
        Await.until("one closed", () -> server.connectionCount() == 3);
        assertThat(ask(connect(server.port()), "room again", 30_000)).startsWith("limit-");
    }

    @Test
    void aWaitingLimitResumesWhenAConnectionOfAnotherReactorCloses() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("wait", 2);
        final TcpServer server = echoServer(group, new TcpConfig().maxConnections(2)
            .acceptSpread(TcpConfig.AcceptSpread.LEAST_LOADED), new ArrayList<>(), new ConcurrentHashMap<>());
        assertThat(ask(connect(server.port()), "a", 30_000)).isEqualTo("wait-0");
        assertThat(ask(connect(server.port()), "b", 30_000)).isEqualTo("wait-1");
        final Socket third = connect(server.port());
        assertThat(ask(third, "c", 300)).as("waits at the limit").isEqualTo("timeout");

        clients.get(1).close(); // wait-1's: the accepting reactor, wait-0, must hear of it
        final BufferedReader in = new BufferedReader(new InputStreamReader(third.getInputStream(),
            StandardCharsets.US_ASCII));
        third.setSoTimeout(30_000);
        assertThat(in.readLine()).as("accepted once one closed").isEqualTo("wait-1");
    }

    @Test
    void closeClosesTheConnectionsOfEveryReactorAndThePort() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("closing", 2);
        final TcpServer server = echoServer(group, new TcpConfig(), new ArrayList<>(), new ConcurrentHashMap<>());
        final List<String> served = new ArrayList<>();
        for (int i = 0; i < 12; i++)
        {
            served.add(ask(connect(server.port()), "hi", 30_000));
        }
        assertThat(spread(served)).hasSize(2);
        final int port = server.port();
        server.close();
        for (final Socket client : clients)
        {
            assertThat(client.getInputStream().read()).isEqualTo(-1);
        }
        Await.until("every connection gone", () -> server.connectionCount() == 0);
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void aClosedServerOpensAgainAtOnceAndServes() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("again", 2);
        final TcpServer server = echoServer(group, new TcpConfig(), new ArrayList<>(), new ConcurrentHashMap<>());
        assertThat(ask(connect(server.port()), "first", 30_000)).startsWith("again-");
        server.close();
        server.open(); // at once: the close must have run on both reactors before the new listeners bind
        assertThat(server.isOpen()).isTrue();
        for (int i = 0; i < 4; i++)
        {
            assertThat(ask(connect(server.port()), "again", 30_000)).startsWith("again-");
        }
    }

    @Test
    void aPortTakenByAnotherSocketFailsTheWholeOpenAndLeavesNothingBound() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("taken", 2);
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 50,
            java.net.InetAddress.getByName("127.0.0.1")))
        {
            final TcpServer server = new TcpServer(group, taken.getLocalPort(),
                new TcpConfig().bindAddress("127.0.0.1"), reactor -> new Handler()
                {
                });
            assertThatThrownBy(server::open).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot listen on 127.0.0.1:" + taken.getLocalPort());
            assertThat(server.isOpen()).isFalse();
        }
    }
}
