package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;

/**
 * A server finds each of its open connections by id, and none once closed, while hundreds open and close in a
 * random order: the table's probes and the places it moves back on a removal, over real connections.
 */
class ConnectionTableTest
{
    private static final int CONNECTIONS = 600;

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

    @Test
    void everyOpenConnectionIsFoundByItsIdAndNoClosedOne() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final List<Connection> opened = new CopyOnWriteArrayList<>();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), new Handler()
        {
            @Override
            public void opened(final Connection connection)
            {
                opened.add(connection);
            }
        }).open();
        for (int i = 0; i < CONNECTIONS; i++)
        {
            clients.add(new Socket("127.0.0.1", server.port()));
        }
        Await.until("every connection open on the server", () -> opened.size() == CONNECTIONS);

        final List<Connection> open = new ArrayList<>(opened);
        final List<Long> closedIds = new ArrayList<>();
        Collections.shuffle(open, new Random(29));
        // In rounds, so that lookups run against tables with gaps closed at many places, down to empty.
        while (!open.isEmpty())
        {
            final List<Connection> closing = new ArrayList<>(open.subList(0, Math.min(open.size(), 97)));
            open.removeAll(closing);
            OnReactor.get(reactor, () ->
            {
                closing.forEach(Connection::close);
                return null;
            });
            closing.forEach(c -> closedIds.add(c.id()));

            final List<Connection> stillOpen = List.copyOf(open);
            final List<String> wrong = OnReactor.get(reactor, () ->
            {
                final List<String> found = new ArrayList<>();
                for (final Connection connection : stillOpen)
                {
                    if (server.connection(connection.id()) != connection)
                    {
                        found.add("open " + connection.id() + " not found");
                    }
                }
                for (final long id : closedIds)
                {
                    if (server.connection(id) != null)
                    {
                        found.add("closed " + id + " found");
                    }
                }
                if (server.connectionCount() != stillOpen.size())
                {
                    found.add("count " + server.connectionCount() + " for " + stillOpen.size());
                }
                return found;
            });
            assertThat(wrong).as("with %d open", stillOpen.size()).isEmpty();
        }
        server.close();
    }
}
