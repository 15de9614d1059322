package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.Reactors;

/**
 * An {@link HttpServer} on a {@link ReactorGroup}: each reactor serves its connections with an application of
 * its own and a Date header of its own, and a close ends them all.
 */
class GroupHttpServerTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    private HttpServer threadNameServer(final ReactorGroup group, final TcpConfig tcp, final List<Reactor> asked)
    {
        return new HttpServer(group, 0, new HttpServerConfig().tcp(tcp.bindAddress("127.0.0.1")), reactor ->
        {
            asked.add(reactor);
            return Router.builder().get("/thread", (request, response) ->
            {
                final boolean own = reactor.isReactorThread();
                response.header("Content-Type", "text/plain").body(((own ? "" : "WRONG ") +
                    Thread.currentThread().getName()).getBytes(StandardCharsets.US_ASCII));
            }).build();
        }).open();
    }

    private static RawClient.Response get(final RawClient client) throws IOException
    {
        return client.send("GET /thread HTTP/1.1\r\nHost: test\r\n\r\n").read(false);
    }

    @Test
    void everyReactorServesItsConnectionsWithItsOwnApplicationAndDate() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("http", 2);
        final List<Reactor> asked = new ArrayList<>();
        final HttpServer server = threadNameServer(group, new TcpConfig(), asked);
        assertThat(asked).containsExactly(group.reactor(0), group.reactor(1));

        final Map<String, Integer> served = new HashMap<>();
        final List<RawClient> clients = new ArrayList<>();
        try
        {
            for (int i = 0; i < 40; i++)
            {
                final RawClient client = new RawClient(server.port());
                clients.add(client);
                final RawClient.Response first = get(client);
                final RawClient.Response second = get(client);
                assertThat(first.status).isEqualTo(200);
                assertThat(first.header("Date")).as("each reactor keeps its Date header").endsWith(" GMT");
                assertThat(second.bodyText()).as("keep-alive stays on its reactor").isEqualTo(first.bodyText());
                served.merge(first.bodyText(), 1, Integer::sum);
            }
            // The kernel hashes each client's port: 40 clients all on one reactor would be a chance of 2^-39.
            assertThat(served.keySet()).containsExactlyInAnyOrder("http-0", "http-1");
            Await.until("every connection counted", () -> server.connectionCount() == 40);
            assertThat(server.connectionsOn(0) + server.connectionsOn(1)).isEqualTo(40);
        }
        finally
        {
            for (final RawClient client : clients)
            {
                client.close();
            }
        }
    }

    @Test
    void leastLoadedAlternatesAndCloseEndsEveryReactorsConnections() throws IOException
    {
        final ReactorGroup group = reactors.startGroup("even", 2);
        final HttpServer server = threadNameServer(group,
            new TcpConfig().acceptSpread(TcpConfig.AcceptSpread.LEAST_LOADED), new ArrayList<>());
        final List<RawClient> clients = new ArrayList<>();
        try
        {
            final List<String> served = new ArrayList<>();
            for (int i = 0; i < 6; i++)
            {
                final RawClient client = new RawClient(server.port());
                clients.add(client);
                served.add(get(client).bodyText());
            }
            assertThat(served).containsExactly("even-0", "even-1", "even-0", "even-1", "even-0", "even-1");
            server.close();
            for (final RawClient client : clients)
            {
                assertThat(client.read(false)).as("closed by the server").isNull();
            }
        }
        finally
        {
            for (final RawClient client : clients)
            {
                client.close();
            }
        }
    }
}
