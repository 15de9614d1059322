package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.TestServer;
import io.celer.test.Await;

/**
 * Requests sent from inside a listener: the next request of a ping-pong, sent from {@code response}, finds the
 * slot its predecessor freed even when every slot is in use; a request rejected again and again from
 * {@code error} does not grow the stack.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClientResendFromListenerTest
{
    @RegisterExtension
    final ClientRig rig = new ClientRig();
    /** Added to on the server's reactor, looked at from the test's thread. */
    private final List<HttpResponse> held = new CopyOnWriteArrayList<>();
    private TestServer server;
    private HttpClient client;

    private void start(final HttpClientConfig config)
    {
        server = rig.add(new TestServer(new HttpServerConfig(), TestServer.routes()
            .get("/seq", (req, res) -> res.body(req.query()))
            .get("/hold", (req, res) -> held.add(res))
            .build()));
        client = rig.client(config, "127.0.0.1:" + server.port());
    }

    @Test
    void pingPongFromOnResponseWorksWithAsManyPendingAsConnections()
    {
        final int connections = 2;
        final int rounds = 300;
        start(new HttpClientConfig().connectionsPerHost(connections).maxPendingRequests(connections));
        final AtomicInteger answered = new AtomicInteger();
        final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        final ResponseListener pingPong = new ResponseListener()
        {
            @Override
            public void response(final HttpClientResponse response)
            {
                if (response.status() == 200 && answered.incrementAndGet() + connections <= connections * rounds)
                {
                    client.request(HttpMethod.GET, "/seq?next").tag(response.tag()).send(this);
                }
            }

            @Override
            public void error(final HttpClientException failure)
            {
                failures.add(failure.getMessage());
            }
        };
        client.reactor().execute(() ->
        {
            for (int i = 0; i < connections; i++)
            {
                client.request(HttpMethod.GET, "/seq?first").tag(i).send(pingPong);
            }
        });
        Await.until(() -> "answered " + answered.get() + ", failures " + failures,
            () -> answered.get() == connections * rounds || !failures.isEmpty(), Await.DEFAULT);
        assertThat(failures).isEmpty();
        assertThat(answered.get()).isEqualTo(connections * rounds);
        Await.until("nothing pending", () -> client.pendingRequests() == 0);
    }

    @Test
    void sendingAgainOnEachRejectionKeepsTheStackFlat()
    {
        start(new HttpClientConfig().connectionsPerHost(1).maxPendingRequests(1));
        final int resends = 200;
        final AtomicInteger rejections = new AtomicInteger();
        final AtomicInteger firstDepth = new AtomicInteger();
        final AtomicInteger deepest = new AtomicInteger();
        final Outcomes held = new Outcomes();
        final ResponseListener insistent = new ResponseListener()
        {
            @Override
            public void response(final HttpClientResponse response)
            {
                throw new AssertionError("only rejections are expected, got " + response);
            }

            @Override
            public void error(final HttpClientException failure)
            {
                final int depth = Thread.currentThread().getStackTrace().length;
                firstDepth.compareAndSet(0, depth);
                deepest.accumulateAndGet(depth, Math::max);
                if (failure.reason() == HttpClientException.Reason.REJECTED && rejections.incrementAndGet() <= resends)
                {
                    client.request(HttpMethod.GET, "/ok").send(this);
                }
            }
        };
        client.reactor().execute(() ->
        {
            client.request(HttpMethod.GET, "/hold").tag(1).send(held);
            client.request(HttpMethod.GET, "/ok").send(insistent);
        });
        Await.until(() -> "rejections " + rejections.get(), () -> rejections.get() > resends, Await.DEFAULT);
        assertThat(deepest.get() - firstDepth.get()).as("stack growth over %d resends", resends).isLessThan(40);
        // The rejections come from the client alone, so they can all be over before the server has read /hold.
        Await.until("the server holding /hold", () -> !this.held.isEmpty());
        server.reactor.execute(() -> this.held.forEach(res -> res.body("released")));
        assertThat(held.await(1)).containsExactly("1 200 released");
    }
}
