package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.TestServer;
import io.celer.test.Await;

/**
 * The client's connections borrow response head and body buffers only while a response is read: idle
 * connections hold none, and responses read at once on several connections do not mix their bytes.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClientBufferLendingTest
{
    private static final int CONNECTIONS = 8;

    @RegisterExtension
    final ClientRig rig = new ClientRig();
    private HttpClient client;

    private int onReactor(final IntSupplier read)
    {
        final int[] value = new int[1];
        client.reactor().call(() -> value[0] = read.getAsInt());
        return value[0];
    }

    private void start()
    {
        final TestServer server = rig.add(new TestServer(new HttpServerConfig(),
            TestServer.routes().get("/echo", (req, res) -> res.body("body of " + req.query())).build()));
        client = rig.client(new HttpClientConfig().connectionsPerHost(CONNECTIONS).maxPipelineDepth(1),
            "127.0.0.1:" + server.port());
        Await.until("all connections open", () -> onReactor(client::openConnections) == CONNECTIONS);
    }

    @Test
    void oneRequestAtATimeOverManyConnectionsUsesOneHeadAndOneBodyBuffer()
    {
        start();
        final Outcomes outcomes = new Outcomes();
        for (int i = 0; i < 3 * CONNECTIONS; i++)
        {
            rig.send(HttpMethod.GET, "/echo?" + i, i, outcomes);
            assertThat(outcomes.await(i + 1)).last().isEqualTo(i + " 200 body of " + i);
        }
        // Every response was read alone and gave its buffers back after its listener: one of each was ever made.
        assertThat(onReactor(client::headBuffersKept)).isEqualTo(1);
        assertThat(onReactor(client::bodyBuffersKept)).isEqualTo(1);
    }

    @Test
    void responsesInFlightTogetherKeepTheirOwnBytes()
    {
        start();
        final Outcomes outcomes = new Outcomes();
        final int rounds = 20;
        client.reactor().execute(() ->
        {
            for (int i = 0; i < rounds * CONNECTIONS; i++)
            {
                client.request(HttpMethod.GET, "/echo?" + i).tag(i).send(outcomes);
            }
        });
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < rounds * CONNECTIONS; i++)
        {
            expected.add(i + " 200 body of " + i);
        }
        assertThat(outcomes.await(rounds * CONNECTIONS)).containsExactlyInAnyOrderElementsOf(expected);
        // All given back, and never more made than connections reading at once.
        assertThat(onReactor(client::headBuffersKept)).isBetween(1, CONNECTIONS);
        assertThat(onReactor(client::bodyBuffersKept)).isBetween(1, CONNECTIONS);
    }
}
