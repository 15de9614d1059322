package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.TestServer;
import io.celer.test.Await;
import io.celer.test.Toxiproxy;
import io.celer.test.Toxiproxy.Direction;
import io.celer.test.Toxiproxy.Proxy;

/**
 * The pool through Toxiproxy, on real sockets: three back-ends while one is blackholed (its bytes dropped both
 * ways, the connection held), and one back-end behind 50 ms of jitter with every byte sliced apart. Skipped
 * where there is no Toxiproxy binary (see {@link Toxiproxy}).
 */
@Tag("faults")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PoolFaultsTest
{
    @RegisterExtension
    final ClientRig rig = new ClientRig();

    /** A back-end that answers {@code GET /g/N} and {@code POST /p/N} with the path, and remembers each. */
    private TestServer recording(final Queue<String> served)
    {
        return rig.add(new TestServer(new HttpServerConfig(), TestServer.routes()
            .prefix(HttpMethod.GET, "/g/", (req, res) ->
            {
                served.add(req.path().toString());
                res.body(req.path().toString());
            })
            .prefix(HttpMethod.POST, "/p/", (req, res) ->
            {
                served.add(req.path().toString());
                res.body(req.path().toString());
            }).build()));
    }

    /** Each request's outcome by tag, and when it was sent and ended. */
    private static final class Timed implements ResponseListener
    {
        final Map<Long, String> outcomes = new ConcurrentHashMap<>();
        final Map<Long, Long> sentAt = new ConcurrentHashMap<>();
        final Map<Long, Long> tookMillis = new ConcurrentHashMap<>();
        final Map<Long, Integer> ends = new ConcurrentHashMap<>();
        final List<Long> order = new java.util.concurrent.CopyOnWriteArrayList<>();

        void send(final HttpClient client, final HttpMethod method, final long tag)
        {
            sentAt.put(tag, System.nanoTime());
            client.request(method, (method == HttpMethod.GET ? "/g/" : "/p/") + tag).tag(tag).send(this);
        }

        private void ended(final long tag, final String outcome)
        {
            tookMillis.put(tag, (System.nanoTime() - sentAt.get(tag)) / 1_000_000);
            ends.merge(tag, 1, Integer::sum);
            order.add(tag);
            outcomes.put(tag, outcome);
        }

        @Override
        public void response(final HttpClientResponse response)
        {
            ended(response.tag(), response.status() + " " + Outcomes.text(response.body()));
        }

        @Override
        public void error(final HttpClientException failure)
        {
            ended(failure.tag(), "FAILED " + failure.reason());
        }
    }

    @Test
    void aBlackholedBackendTimesOutItsOldestRequestRetriesItsGetsElsewhereAndNeverSendsAPostTwice() throws Exception
    {
        final Toxiproxy toxiproxy = rig.add(Toxiproxy.start());
        final List<Queue<String>> served = new ArrayList<>();
        final String[] hosts = new String[3];
        final Proxy[] proxies = new Proxy[3];
        for (int i = 0; i < 3; i++)
        {
            served.add(new ConcurrentLinkedQueue<>());
            proxies[i] = toxiproxy.proxy(recording(served.get(i)).port());
            hosts[i] = "127.0.0.1:" + proxies[i].port();
        }
        final HttpClient client = rig.client(new HttpClientConfig().connectionsPerHost(1).maxPipelineDepth(4)
            .responseTimeoutMillis(1_000).reconnectDelayMillis(50), hosts);
        Await.until("three connections open", () -> client.openConnections() == 3);
        // Warm up: each connection learns that its server keeps connections open, and pipelines from then on.
        final Timed warm = new Timed();
        client.reactor().execute(() ->
        {
            for (int i = 0; i < 30; i++)
            {
                warm.send(client, HttpMethod.GET, i);
            }
        });
        Await.until("the warm-up answered", () -> warm.outcomes.size() == 30);
        assertThat(warm.outcomes.values()).allMatch(outcome -> outcome.startsWith("200 "));

        // Toxiproxy's timeout toxic at 0: every byte dropped, both ways, and the connections kept open.
        proxies[1].toxic("blackhole-up", "timeout", Direction.UPSTREAM, "\"timeout\":0")
            .toxic("blackhole-down", "timeout", Direction.DOWNSTREAM, "\"timeout\":0");
        final int blackholedBefore = served.get(1).size();
        // GET and POST in turn, all at once: each connection takes four, pipelined.
        final Timed faulty = new Timed();
        client.reactor().execute(() ->
        {
            for (long tag = 100; tag < 112; tag++)
            {
                faulty.send(client, tag % 2 == 0 ? HttpMethod.GET : HttpMethod.POST, tag);
            }
        });
        Await.until(() -> "every request ended: " + faulty.outcomes, () -> faulty.outcomes.size() == 12,
            Await.DEFAULT);
        Thread.sleep(200); // a second end of any request would come now
        System.out.println("with one back-end blackholed: " + new java.util.TreeMap<>(faulty.outcomes) +
            ", took ms " + new java.util.TreeMap<>(faulty.tookMillis));
        assertThat(faulty.ends.values()).as("ends per request").allMatch(count -> count == 1);
        assertThat(served.get(1)).as("what the blackholed back-end saw").hasSize(blackholedBefore);
        final List<String> everyServed = new ArrayList<>();
        served.forEach(everyServed::addAll);
        int timedOut = 0;
        int retried = 0;
        int postsFailed = 0;
        for (long tag = 100; tag < 112; tag++)
        {
            final String outcome = faulty.outcomes.get(tag);
            final String path = (tag % 2 == 0 ? "/g/" : "/p/") + tag;
            final long seen = everyServed.stream().filter(path::equals).count();
            if (outcome.startsWith("200 "))
            {
                assertThat(outcome).isEqualTo("200 " + path);
                assertThat(seen).as("servers that saw %s", path).isEqualTo(1);
                retried += faulty.tookMillis.get(tag) >= 900 ? 1 : 0; // waited out the blackhole first
            }
            else
            {
                assertThat(outcome).isIn("FAILED RESPONSE_TIMEOUT", "FAILED CONNECTION_CLOSED");
                assertThat(seen).as("servers that saw the failed %s", path).isZero();
                timedOut += outcome.endsWith("RESPONSE_TIMEOUT") ? 1 : 0;
                if (tag % 2 == 1)
                {
                    postsFailed++;
                }
                else
                {
                    assertThat(outcome).as("a GET fails only as the oldest on the blackholed wire")
                        .isEqualTo("FAILED RESPONSE_TIMEOUT");
                }
            }
        }
        assertThat(timedOut).as("requests that timed out").isEqualTo(1);
        assertThat(retried).as("GETs answered elsewhere after the response timeout").isPositive();
        assertThat(postsFailed).as("POSTs failed on the blackholed wire, not re-sent").isPositive();

        // The blackhole lifts: the back-end takes requests again, and never sees the failed POSTs.
        proxies[1].remove("blackhole-up");
        proxies[1].remove("blackhole-down");
        Await.until("three connections open again", () -> client.openConnections() == 3);
        // The pool picks connections by their load, not in turn, so a batch may miss the healed one: batches of
        // thirty until it serves again, for ten seconds at most.
        final long healedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (long batch = 0; served.get(1).size() == blackholedBefore && System.nanoTime() < healedBy; batch++)
        {
            final Timed healed = new Timed();
            final long first = 200 + 30 * batch;
            client.reactor().execute(() ->
            {
                for (long tag = first; tag < first + 30; tag++)
                {
                    healed.send(client, HttpMethod.GET, tag);
                }
            });
            Await.until("the healed pool answered", () -> healed.outcomes.size() == 30);
            assertThat(healed.outcomes.values()).allMatch(outcome -> outcome.startsWith("200 /g/"));
        }
        assertThat(served.get(1).size()).as("the back-end serves again").isGreaterThan(blackholedBefore);
        assertThat(served.get(1)).noneMatch(path -> path.startsWith("/p/1"));
    }

    @Test
    void fiftyMillisecondsOfJitterAndBytesSlicedOneByOneStillAnswerEveryRequestOnceInOrder() throws Exception
    {
        final Toxiproxy toxiproxy = rig.add(Toxiproxy.start());
        final Queue<String> served = new ConcurrentLinkedQueue<>();
        final Proxy proxy = toxiproxy.proxy(recording(served).port());
        for (final Direction direction : Direction.values())
        {
            proxy.toxic("jitter-" + direction, "latency", direction, "\"latency\":0,\"jitter\":50")
                .toxic("slices-" + direction, "slicer", direction,
                    "\"average_size\":1,\"size_variation\":0,\"delay\":10");
        }
        // One connection, 16 pipelined: its answers must come back in the order sent, whatever the wire does.
        final HttpClient client = rig.client(new HttpClientConfig().connectionsPerHost(1).maxPipelineDepth(16),
            "127.0.0.1:" + proxy.port());
        Await.until("the connection open", () -> client.openConnections() == 1);
        final Timed timed = new Timed();
        final int count = 200;
        client.reactor().execute(() ->
        {
            for (long tag = 0; tag < count; tag++)
            {
                timed.send(client, tag % 5 == 0 ? HttpMethod.POST : HttpMethod.GET, tag);
            }
        });
        Await.until(() -> timed.outcomes.size() + " of " + count + " answered", () -> timed.outcomes.size() == count,
            java.time.Duration.ofSeconds(90));
        for (long tag = 0; tag < count; tag++)
        {
            assertThat(timed.outcomes.get(tag)).isEqualTo("200 " + (tag % 5 == 0 ? "/p/" : "/g/") + tag);
        }
        assertThat(timed.ends.values()).allMatch(ends -> ends == 1);
        assertThat(served).hasSize(count).doesNotHaveDuplicates();
        assertThat(timed.order).as("answers in sending order").isSorted().hasSize(count);
        System.out.println("jitter and slicing: " + count + " answered, the slowest in " +
            timed.tookMillis.values().stream().mapToLong(Long::longValue).max().orElse(0) + " ms");
    }
}
