package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.http.server.TestServer;
import io.celer.test.Await;
import io.celer.test.OnReactor;

/**
 * The pool over several hosts: balancing, fail-over from a back-end that dies with a request on its wire
 * (idempotent retried once elsewhere, the rest failed), refused connections, response timeouts, malformed and
 * close-delimited responses from a scripted peer.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PoolFailoverTest
{
    @RegisterExtension
    final ClientRig rig = new ClientRig();
    private final AtomicInteger eofs = new AtomicInteger();
    private TestServer good;
    private TestServer other;
    private ScriptedPeer peer;
    private HttpClient client;

    private HttpClient client(final HttpClientConfig config, final String... hosts)
    {
        client = rig.client(config, hosts);
        return client;
    }

    private static Router countingRoutes(final AtomicInteger served)
    {
        return TestServer.routes().get("/count", (req, res) ->
        {
            served.incrementAndGet();
            res.body("counted");
        }).build();
    }

    /** Reads one request, then closes without answering: a back-end that dies with the request on its wire. */
    private static void dieAfterOneRequest(final ScriptedPeer peer, final java.net.Socket socket, final int index)
        throws IOException
    {
        peer.readRequest(socket.getInputStream());
    }

    /** Reads requests and never answers, until the client closes. */
    private void neverAnswer(final ScriptedPeer scripted, final java.net.Socket socket, final int index)
        throws IOException
    {
        final InputStream in = socket.getInputStream();
        while (scripted.readRequest(in) != null)
        {
            Thread.onSpinWait();
        }
        eofs.incrementAndGet();
    }

    @Test
    void spreadsRequestsOverHostsByLeastPending()
    {
        final AtomicInteger first = new AtomicInteger();
        final AtomicInteger second = new AtomicInteger();
        good = rig.add(new TestServer(new HttpServerConfig(), countingRoutes(first)));
        other = rig.add(new TestServer(new HttpServerConfig(), countingRoutes(second)));
        client(new HttpClientConfig().connectionsPerHost(2).maxPipelineDepth(4),
            "127.0.0.1:" + good.port(), "127.0.0.1:" + other.port());
        Await.until("four connections open", () -> client.openConnections() == 4);
        final Outcomes outcomes = new Outcomes();
        final int count = 400;
        rig.sendAll(count, "/count", outcomes);
        assertThat(outcomes.await(count)).allMatch(line -> line.endsWith(" 200 counted"));
        assertThat(first.get() + second.get()).isEqualTo(count);
        // How the load splits follows how fast each host answers, which a loaded machine decides.
        assertThat(first.get()).as("served by the first host").isPositive();
        assertThat(second.get()).as("served by the second host").isPositive();
    }

    @Test
    void aNewRequestGoesToTheConnectionWithFewestInFlight() throws IOException
    {
        final ScriptedPeer.Script answerFirstThenHold = (scripted, socket, index) ->
        {
            final InputStream in = socket.getInputStream();
            if (scripted.readRequest(in) != null)
            {
                ScriptedPeer.write(socket.getOutputStream(), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                while (scripted.readRequest(in) != null)
                {
                    Thread.onSpinWait();
                }
            }
        };
        peer = rig.add(new ScriptedPeer(answerFirstThenHold));
        try (ScriptedPeer second = new ScriptedPeer(answerFirstThenHold))
        {
            client(new HttpClientConfig().connectionsPerHost(1).maxPipelineDepth(8),
                "127.0.0.1:" + peer.port(), "127.0.0.1:" + second.port());
            Await.until("both connections open", () -> client.openConnections() == 2);
            final Outcomes outcomes = new Outcomes();
            // In one go: sent apart, the first could be answered before the second is sent, which would then take
            // the first connection again, whose peer answers only once.
            rig.sendAll(2, "/warm", outcomes);
            assertThat(outcomes.await(2)).containsExactlyInAnyOrder("0 200 ok", "1 200 ok");
            assertThat(peer.requestLines).hasSize(1); // one each while the connections are new
            client.reactor().execute(() ->
            {
                for (int i = 0; i < 9; i++)
                {
                    client.request(HttpMethod.GET, "/held").tag(10 + i).send(outcomes);
                }
            });
            Await.until("nine held requests seen", () -> peer.requestLines.size() + second.requestLines.size() == 11);
            assertThat(peer.requestLines.size() - second.requestLines.size()).isBetween(-1, 1);
        }
    }

    @Test
    void anIdempotentRequestOnADeadWireIsRetriedOnceElsewhere() throws IOException
    {
        peer = rig.add(new ScriptedPeer(PoolFailoverTest::dieAfterOneRequest));
        good = rig.add(new TestServer());
        client(new HttpClientConfig().connectionsPerHost(1), "127.0.0.1:" + peer.port(), "127.0.0.1:" + good.port());
        Await.until("both connections open", () -> client.openConnections() == 2);
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.GET, "/ok", 1, outcomes); // ties go to the first host: the dying one
        assertThat(outcomes.await(1)).containsExactly("1 200 ok");
        assertThat(peer.requestLines).containsExactly("GET /ok HTTP/1.1");
    }

    @Test
    void aRetryAvoidsTheOtherConnectionsOfTheHostThatLostIt() throws IOException
    {
        // A back-end dying on both its connections at once, and on every reconnect: its other connection, or a new
        // one its port still accepts, would lose the retry too.
        final java.util.concurrent.CountDownLatch bothRead = new java.util.concurrent.CountDownLatch(2);
        peer = rig.add(new ScriptedPeer((scripted, socket, index) ->
        {
            scripted.readRequest(socket.getInputStream());
            bothRead.countDown();
            Await.until("both connections read a request", () -> bothRead.getCount() == 0);
        }));
        final AtomicInteger served = new AtomicInteger();
        good = rig.add(new TestServer(new HttpServerConfig(), countingRoutes(served)));
        client(new HttpClientConfig().connectionsPerHost(2).reconnectDelayMillis(1),
            "127.0.0.1:" + peer.port(), "127.0.0.1:" + good.port());
        Await.until("four connections open", () -> client.openConnections() == 4);
        final Outcomes outcomes = new Outcomes();
        final int count = 4;
        rig.sendAll(count, "/count", outcomes); // ties go round: two of the four to the dying host
        assertThat(outcomes.await(count)).allMatch(line -> line.endsWith(" 200 counted"));
        assertThat(served.get()).as("each answered once, by the host still up").isEqualTo(count);
        assertThat(peer.requestLines).hasSize(2);
    }

    @Test
    void aNonIdempotentRequestOnADeadWireFails() throws IOException
    {
        peer = rig.add(new ScriptedPeer(PoolFailoverTest::dieAfterOneRequest));
        final AtomicInteger served = new AtomicInteger();
        good = rig.add(new TestServer(new HttpServerConfig(), TestServer.routes().post("/once", (req, res) ->
        {
            served.incrementAndGet();
            res.body("done");
        }).build()));
        client(new HttpClientConfig().connectionsPerHost(1), "127.0.0.1:" + peer.port(), "127.0.0.1:" + good.port());
        Await.until("both connections open", () -> client.openConnections() == 2);
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.POST, "/once", 1, outcomes);
        assertThat(outcomes.await(1).get(0)).startsWith("1 FAILED CONNECTION_CLOSED")
            .contains("POST /once HTTP/1.1", "closed");
        assertThat(peer.requestLines).containsExactly("POST /once HTTP/1.1");
        assertThat(served.get()).as("the POST was not sent again").isZero();
        rig.send(HttpMethod.POST, "/once", 2, outcomes);
        assertThat(outcomes.await(2).get(1)).isEqualTo("2 200 done");
    }

    @Test
    void requestsFailWhenNoHostAcceptsConnections() throws IOException
    {
        final int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            closedPort = socket.getLocalPort();
        }
        client(new HttpClientConfig().connectionsPerHost(2), "127.0.0.1:" + closedPort);
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.GET, "/", 1, outcomes);
        final String line = outcomes.await(1).get(0);
        assertThat(line).startsWith("1 FAILED CONNECT_FAILED").contains("cannot connect to [127.0.0.1:" + closedPort);
        assertThat(outcomes.failures().get(0).getCause()).isNotNull();
    }

    @Test
    void aConnectTimeoutFailsTheWaitingRequests() throws IOException
    {
        // A listener that never accepts, its backlog filled: the kernel drops further SYNs, so connects hang.
        try (ServerSocket stuck = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final List<java.nio.channels.SocketChannel> fillers = new java.util.ArrayList<>();
            try
            {
                for (int i = 0; i < 4; i++)
                {
                    final java.nio.channels.SocketChannel filler = java.nio.channels.SocketChannel.open();
                    filler.configureBlocking(false);
                    filler.connect(stuck.getLocalSocketAddress());
                    fillers.add(filler);
                }
                client(new HttpClientConfig().connectionsPerHost(1).connectTimeoutMillis(300),
                    "127.0.0.1:" + stuck.getLocalPort());
                final Outcomes outcomes = new Outcomes();
                rig.send(HttpMethod.GET, "/", 1, outcomes);
                assertThat(outcomes.await(1).get(0)).startsWith("1 FAILED CONNECT_FAILED");
                assertThat(outcomes.failures().get(0).getCause()).hasMessageContaining("timed out after 300");
            }
            finally
            {
                for (final java.nio.channels.SocketChannel filler : fillers)
                {
                    filler.close();
                }
            }
        }
    }

    @Test
    void aResponseTimeoutFailsTheRequestAndClosesItsConnection() throws IOException
    {
        peer = rig.add(new ScriptedPeer(this::neverAnswer));
        client(new HttpClientConfig().connectionsPerHost(1).responseTimeoutMillis(300), "127.0.0.1:" + peer.port());
        // Open first: requests that found no connection in time would time out too, but leave it open.
        Await.until("the connection open", () -> client.openConnections() == 1);
        final Outcomes outcomes = new Outcomes();
        final long[] sentAt = new long[1];
        final AtomicLong failedAt = new AtomicLong();
        final ResponseListener timed = new ResponseListener()
        {
            @Override
            public void response(final HttpClientResponse response)
            {
                outcomes.response(response);
            }

            @Override
            public void error(final HttpClientException failure)
            {
                failedAt.compareAndSet(0, client.reactor().nowMillis());
                outcomes.error(failure);
            }
        };
        // Both on the one connection, and timed by the reactor's clock, which the deadline is measured by.
        client.reactor().execute(() ->
        {
            sentAt[0] = client.reactor().nowMillis();
            client.request(HttpMethod.GET, "/slow").tag(1).send(timed);
            client.request(HttpMethod.POST, "/slow").tag(2).send(timed);
        });
        final List<String> lines = outcomes.await(2);
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("1 FAILED RESPONSE_TIMEOUT"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("2 FAILED RESPONSE_TIMEOUT"));
        final long waited = OnReactor.get(client.reactor(), () -> failedAt.get() - sentAt[0]);
        assertThat(waited).as("milliseconds from the send to the first failure").isGreaterThanOrEqualTo(300);
        Await.until("the peer saw the connection closed", () -> eofs.get() >= 1);
        Await.until("nothing pending", () -> client.pendingRequests() == 0);
    }

    @Test
    void aMalformedResponseFailsWithAProtocolError() throws IOException
    {
        peer = rig.add(new ScriptedPeer((scripted, socket, index) ->
        {
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            if (scripted.readRequest(in) != null)
            {
                ScriptedPeer.write(out, index == 0
                    ? "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"
                    : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                while (scripted.readRequest(in) != null)
                {
                    ScriptedPeer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                }
            }
        }));
        client(new HttpClientConfig().connectionsPerHost(1).reconnectDelayMillis(10), "127.0.0.1:" + peer.port());
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.GET, "/", 1, outcomes);
        assertThat(outcomes.await(1).get(0)).startsWith("1 FAILED PROTOCOL_ERROR")
            .contains("conflicting Content-Length");
        rig.send(HttpMethod.GET, "/", 2, outcomes);
        assertThat(outcomes.await(2).get(1)).isEqualTo("2 200 ok");
        assertThat(peer.connections.get()).isEqualTo(2);
    }

    @Test
    void readsCloseDelimitedAndInterimResponses() throws IOException
    {
        peer = rig.add(new ScriptedPeer((scripted, socket, index) ->
        {
            final String line = scripted.readRequest(socket.getInputStream());
            if (line != null)
            {
                ScriptedPeer.write(socket.getOutputStream(), "HTTP/1.1 100 Continue\r\n\r\n" +
                    "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close " + index);
            }
        }));
        client(new HttpClientConfig().connectionsPerHost(1).reconnectDelayMillis(10), "127.0.0.1:" + peer.port());
        final Outcomes outcomes = new Outcomes();
        for (int i = 0; i < 3; i++)
        {
            rig.send(HttpMethod.GET, "/", i, outcomes);
        }
        assertThat(outcomes.await(3)).containsExactly("0 200 until close 0", "1 200 until close 1",
            "2 200 until close 2");
    }
}
