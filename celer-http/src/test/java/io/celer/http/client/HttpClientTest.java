package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.counters.Counters;
import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.http.server.TestServer;
import io.celer.reactor.Reactor;
import io.celer.test.Await;

/**
 * The client on one connection against the Celer server: pipelined requests answered in order, and every way a
 * server delimits a body (Content-Length, chunked, none after HEAD, streamed when large).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class HttpClientTest
{
    private static final int BIG = 300_000;

    @RegisterExtension
    final ClientRig rig = new ClientRig();
    private TestServer server;
    private HttpClient client;

    private static Router.Builder routes()
    {
        return TestServer.routes()
            .get("/seq", (req, res) -> res.body(req.query()))
            .get("/chunked", (req, res) ->
            {
                res.beginChunked();
                res.writeChunk("first,");
                res.writeChunk("second,");
                res.writeChunk("third");
                res.endChunked();
            })
            .get("/big", (req, res) -> res.body(TestServer.letters(BIG)))
            .get("/close", (req, res) -> res.header("Connection", "close").body("bye"))
            .get("/host", (req, res) -> res.body(req.header("Host") + " " + req.header("X-Trace")));
    }

    private HttpClient start(final HttpClientConfig config)
    {
        server = rig.add(new TestServer(new HttpServerConfig().responseBufferSize(1024 * 1024), routes().build()));
        client = rig.client(config, "127.0.0.1:" + server.port());
        return client;
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder()
    {
        start(new HttpClientConfig().connectionsPerHost(1).maxPipelineDepth(8));
        final Outcomes outcomes = new Outcomes();
        final AtomicInteger maxPending = new AtomicInteger();
        final int count = 200;
        client.reactor().execute(() ->
        {
            for (int i = 0; i < count; i++)
            {
                client.request(HttpMethod.GET, "/seq?" + i).tag(i).send(outcomes);
                maxPending.accumulateAndGet(client.pendingRequests(), Math::max);
            }
        });
        final List<String> lines = outcomes.await(count);
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            expected.add(i + " 200 " + i);
        }
        assertThat(lines).isEqualTo(expected);
        assertThat(maxPending.get()).isEqualTo(count);
        assertThat(server.server.connectionCount()).isEqualTo(1);
        // Each answered request is timed, in its reactor's histogram, before its listener hears of it.
        assertThat(Counters.process().reader().sum(client.reactor().counters().name(), "http.client.latency", ""))
            .isEqualTo(count);
    }

    @Test
    void readsChunkedAndLengthDelimitedBodiesAndHeaders()
    {
        start(new HttpClientConfig());
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.GET, "/chunked", 1, outcomes);
        outcomes.await(1);
        rig.send(HttpMethod.GET, "/plaintext", 2, outcomes);
        assertThat(outcomes.await(2)).containsExactly("1 200 first,second,third", "2 200 Hello, World!");
        assertThat(outcomes.heads().get(0)).contains("Transfer-Encoding: chunked");
        assertThat(outcomes.heads().get(1)).contains("Content-Type: text/plain", "Content-Length: 13");
    }

    @Test
    void headResponsesHaveNoBodyAndKeepTheConnectionInStep()
    {
        start(new HttpClientConfig().connectionsPerHost(1));
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.HEAD, "/plaintext", 1, outcomes);
        rig.send(HttpMethod.GET, "/ok", 2, outcomes);
        assertThat(outcomes.await(2)).containsExactly("1 200 ", "2 200 ok");
        assertThat(outcomes.heads().get(0)).contains("Content-Length: 13");
    }

    @Test
    void postsABodyFromBytesBufferOrText()
    {
        start(new HttpClientConfig());
        final Outcomes outcomes = new Outcomes();
        final byte[] kib = new byte[1024];
        for (int i = 0; i < kib.length; i++)
        {
            kib[i] = (byte)('A' + i % 26);
        }
        client.reactor().execute(() ->
        {
            client.request(HttpMethod.POST, "/echo").tag(1).header("Content-Type", "application/octet-stream")
                .body(kib).send(outcomes);
            client.request(HttpMethod.POST, "/echo").tag(2).body(ByteBuffer.wrap(kib, 0, 10)).send(outcomes);
            client.request(HttpMethod.POST, "/echo").tag(3).body("text body").send(outcomes);
            client.request(HttpMethod.POST, "/echo").tag(4).send(outcomes);
        });
        final List<String> lines = outcomes.await(4);
        assertThat(lines).contains("1 200 " + new String(kib, StandardCharsets.ISO_8859_1), "2 200 ABCDEFGHIJ",
            "3 200 text body", "4 200 ");
    }

    @Test
    void streamsABodyLargerThanTheHeldSize()
    {
        start(new HttpClientConfig().maxBodySize(16 * 1024));
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.GET, "/big", 7, outcomes);
        final String line = outcomes.await(1).get(0);
        assertThat(line).startsWith("7 200 abcdefghijklmnopqrstuvwxyzabc").hasSize("7 200 ".length() + BIG);
    }

    @Test
    void aConnectionCloseResponseReconnectsAndLaterRequestsStillGo()
    {
        start(new HttpClientConfig().connectionsPerHost(1).reconnectDelayMillis(10));
        final Outcomes outcomes = new Outcomes();
        for (int i = 0; i < 3; i++)
        {
            rig.send(HttpMethod.GET, "/close", i, outcomes);
        }
        rig.send(HttpMethod.POST, "/echo", 3, outcomes);
        assertThat(outcomes.await(4)).containsExactly("0 200 bye", "1 200 bye", "2 200 bye", "3 200 ");
    }

    @Test
    void tooManyPendingOrTooLargeRequestsAreRejected()
    {
        start(new HttpClientConfig().maxPendingRequests(2).maxRequestSize(256));
        final Outcomes outcomes = new Outcomes();
        client.reactor().execute(() ->
        {
            client.request(HttpMethod.POST, "/echo").tag(1).body(new byte[300]).send(outcomes);
            client.request(HttpMethod.GET, "/ok").tag(2).send(outcomes);
            client.request(HttpMethod.GET, "/ok").tag(3).send(outcomes);
            client.request(HttpMethod.GET, "/ok").tag(4).send(outcomes);
        });
        final List<String> lines = outcomes.await(4);
        assertThat(lines).contains("2 200 ok", "3 200 ok");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("1 FAILED REJECTED").contains("maxRequestSize"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("4 FAILED REJECTED").contains("maxPendingRequests"));
        Await.until("nothing pending", () -> client.pendingRequests() == 0);
    }

    @Test
    void writesTheHostFieldUnlessTheCallerDoesAndTheCallersFields()
    {
        start(new HttpClientConfig().connectionsPerHost(1));
        final Outcomes outcomes = new Outcomes();
        client.reactor().execute(() ->
        {
            client.request(HttpMethod.GET, "/host").tag(1).header("X-Trace", 42).send(outcomes);
            client.request(HttpMethod.GET, "/host").tag(2).header("host", "example.com").header("X-Trace", "t")
                .send(outcomes);
        });
        assertThat(outcomes.await(2)).containsExactly("1 200 127.0.0.1:" + server.port() + " 42",
            "2 200 example.com t");
    }

    @Test
    void refusesFieldsThatWouldBreakTheFramingAndCallsOffTheReactorThread()
    {
        server = rig.add(new TestServer(new HttpServerConfig(), routes().build()));
        final Reactor reactor = rig.reactor(new io.celer.reactor.ReactorConfig().name("checked-client")
            .idleStrategy(new org.agrona.concurrent.BackoffIdleStrategy(10, 10, 1_000, 100_000)).checkThreads(true));
        client = rig.client(reactor, new HttpClientConfig(), "127.0.0.1:" + server.port());
        final java.util.concurrent.atomic.AtomicReference<List<String>> errors = new java.util.concurrent.atomic.AtomicReference<>();
        client.reactor().call(() ->
        {
            final List<String> seen = new ArrayList<>();
            final Runnable[] attempts = {
                () -> client.request(HttpMethod.GET, "/").header("X", "a\r\nInjected: 1"),
                () -> client.request(HttpMethod.GET, "/").header("Bad Name", "v"),
                () -> client.request(HttpMethod.GET, "/").header("Content-Length", "5"),
                () -> client.request(HttpMethod.GET, "/").header("transfer-encoding", "chunked"),
                () -> client.request(HttpMethod.GET, "/a b"),
                () -> client.request(HttpMethod.CONNECT, "/"),
                () -> client.request(HttpMethod.POST, "/").body("x").header("Late", "field"),
            };
            for (final Runnable attempt : attempts)
            {
                try
                {
                    attempt.run();
                    seen.add("accepted");
                }
                catch (final IllegalArgumentException | IllegalStateException expected)
                {
                    seen.add(expected.getClass().getSimpleName());
                }
            }
            errors.set(seen);
        });
        assertThat(errors.get()).doesNotContain("accepted").hasSize(7);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> client.request(HttpMethod.GET, "/"))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("reactor thread");
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.GET, "/ok", 1, outcomes);
        assertThat(outcomes.await(1)).containsExactly("1 200 ok");
        Await.until("nothing pending, no exchange lost", () -> client.pendingRequests() == 0);
    }
}
