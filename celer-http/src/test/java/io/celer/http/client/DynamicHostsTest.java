package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.TestServer;
import io.celer.test.Await;

/**
 * Hosts that join and leave the pool at run time, from a thread that is not the reactor's: a pool grown from one
 * host to three and shrunk back to one under load answers every request exactly once, POSTs included (which a
 * connection closed under them would fail); a host added twice or removed unknown changes nothing; with no host
 * left, requests wait for one to be added.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DynamicHostsTest
{
    @RegisterExtension
    final ClientRig rig = new ClientRig();

    private TestServer counting(final AtomicInteger served)
    {
        return rig.add(new TestServer(new HttpServerConfig(), TestServer.routes().post("/n", (req, res) ->
        {
            served.incrementAndGet();
            res.body("served");
        }).build()));
    }

    /**
     * Keeps {@code window} POSTs in flight until {@code total} were sent: each answer sends the next, so the pool
     * is under load through every change; counts each tag's answers.
     */
    private static final class Load implements ResponseListener
    {
        private final HttpClient client;
        private final int total;
        private final AtomicIntegerArray answers;
        private final AtomicLong done = new AtomicLong();
        private final AtomicLong failed = new AtomicLong();
        private int sent;

        Load(final HttpClient client, final int total)
        {
            this.client = client;
            this.total = total;
            this.answers = new AtomicIntegerArray(total);
        }

        void start(final int window)
        {
            client.reactor().execute(() ->
            {
                for (int i = 0; i < window; i++)
                {
                    sendNext();
                }
            });
        }

        private void sendNext()
        {
            if (sent < total)
            {
                final int tag = sent++;
                client.request(HttpMethod.POST, "/n").tag(tag).body(("request " + tag).getBytes(StandardCharsets.US_ASCII))
                    .send(this);
            }
        }

        @Override
        public void response(final HttpClientResponse response)
        {
            answers.incrementAndGet((int)response.tag());
            if (response.status() != 200)
            {
                failed.incrementAndGet();
            }
            done.incrementAndGet();
            sendNext();
        }

        @Override
        public void error(final HttpClientException failure)
        {
            answers.incrementAndGet((int)failure.tag());
            failed.incrementAndGet();
            System.out.println("failed: " + failure.getMessage());
            done.incrementAndGet();
            sendNext();
        }
    }

    @Test
    void aPoolGrownFromOneToThreeHostsAndShrunkToOneUnderLoadAnswersEveryRequestExactlyOnce()
    {
        final AtomicInteger[] served = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        final TestServer[] servers = new TestServer[3];
        for (int i = 0; i < servers.length; i++)
        {
            servers[i] = counting(served[i]);
        }
        final String[] hosts = new String[3];
        for (int i = 0; i < hosts.length; i++)
        {
            hosts[i] = "127.0.0.1:" + servers[i].port();
        }
        final HttpClient client = rig.client(new HttpClientConfig().connectionsPerHost(2).maxPipelineDepth(8), hosts[0]);
        Await.until("the first host's connections open", () -> client.openConnections() == 2);
        final int total = 30_000;
        final Load load = new Load(client, total);
        load.start(64);

        Await.until("a sixth answered", () -> load.done.get() >= total / 6);
        client.addHost(hosts[1]);
        client.addHost(hosts[2]);
        Await.until("six connections open", () -> client.openConnections() == 6);
        final long grown = load.done.get();
        Await.until("the new hosts serve", () -> served[1].get() > 0 && served[2].get() > 0 &&
            load.done.get() > grown + total / 6);
        client.removeHost(hosts[0]);
        client.removeHost(hosts[1]);
        Await.until("one host left", () -> client.hosts().size() == 1);
        assertThat(client.hosts()).containsExactly(hosts[2]);
        Await.until("every request answered", () -> load.done.get() == total);

        System.out.printf("served by each host: %d, %d, %d%n", served[0].get(), served[1].get(), served[2].get());
        assertThat(load.failed.get()).isZero();
        for (int tag = 0; tag < total; tag++)
        {
            assertThat(load.answers.get(tag)).as("answers to request %d", tag).isEqualTo(1);
        }
        assertThat(served[0].get() + served[1].get() + served[2].get()).as("requests the servers saw").isEqualTo(total);
        Await.until("only the last host's connections left", () -> client.openConnections() == 2);
        final int before = served[2].get();
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.POST, "/n", 1, outcomes);
        Await.until("the answer", () -> outcomes.count() == 1);
        assertThat(outcomes.lines()).containsExactly("1 200 served");
        assertThat(served[2].get()).isEqualTo(before + 1);
    }

    @Test
    void withNoHostLeftRequestsWaitForOneToBeAdded()
    {
        final TestServer first = rig.add(new TestServer());
        final TestServer second = rig.add(new TestServer());
        final HttpClient client = rig.client(new HttpClientConfig().responseTimeoutMillis(20_000),
            "127.0.0.1:" + first.port());
        Await.until("connected", () -> client.openConnections() > 0);
        client.removeHost("127.0.0.1:" + first.port());
        Await.until("no connection left", () -> client.openConnections() == 0);
        final Outcomes outcomes = new Outcomes();
        rig.send(HttpMethod.GET, "/ok", 7, outcomes);
        client.addHost("127.0.0.1:" + second.port());
        Await.until("the answer", () -> outcomes.count() == 1);
        assertThat(outcomes.lines().get(0)).startsWith("7 200");
        assertThat(client.hosts()).containsExactly("127.0.0.1:" + second.port());
    }

    @Test
    void aHostAddedTwiceOrRemovedUnknownChangesNothingAndAMalformedOneIsRefused()
    {
        final TestServer server = rig.add(new TestServer());
        final String host = "127.0.0.1:" + server.port();
        final HttpClient client = rig.client(new HttpClientConfig().connectionsPerHost(1), host);
        client.addHost(host);
        client.removeHost("127.0.0.1:1");
        client.reactor().call(() -> { }); // both ran
        assertThat(client.hosts()).containsExactly(host);
        Await.until("one connection", () -> client.openConnections() == 1);
        assertThatThrownBy(() -> client.addHost("no port")).isInstanceOf(IllegalArgumentException.class);
        assertThat(List.copyOf(client.hosts())).containsExactly(host);
    }
}
