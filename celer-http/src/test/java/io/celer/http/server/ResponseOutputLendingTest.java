package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;

/**
 * A connection borrows what puts its responses out and times them (a response output and its timer) from the
 * first response in flight until the last is sent, and gives it back between requests, whether the answer came in
 * the read, later from a callback, after a backlog, or never, the connection closing first.
 */
class ResponseOutputLendingTest
{
    @AutoClose
    private TestServer server;

    @Test
    void idleKeepAliveConnectionsHoldNoOutputAndShareOne() throws Exception
    {
        server = new TestServer(new HttpServerConfig());
        try (RawClient a = new RawClient(server.port()); RawClient b = new RawClient(server.port()))
        {
            for (int i = 0; i < 3; i++)
            {
                for (final RawClient client : new RawClient[] {a, b})
                {
                    client.send("GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertThat(client.read().bodyText()).isEqualTo("Hello, World!");
                }
            }
            awaitNoneLent();
            assertThat(onReactor(() -> server.server.recycler().outputsMade()))
                .as("one output served both connections' requests, one after the other").isEqualTo(1);
        }
    }

    @Test
    void aResponseAnsweredLaterKeepsTheOutputUntilItIsSent() throws Exception
    {
        final AtomicReference<HttpResponse> held = new AtomicReference<>();
        server = new TestServer(new HttpServerConfig(), Router.builder()
            .get("/later", (req, res) -> held.set(res))
            .build());
        try (RawClient client = new RawClient(server.port()))
        {
            for (int i = 0; i < 3; i++)
            {
                held.set(null);
                client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n");
                Await.until("the request held", () -> held.get() != null);
                assertThat(onReactor(() -> server.server.recycler().outputsLent()))
                    .as("lent while the response is in flight").isEqualTo(1);

                final String answer = "later " + i;
                server.reactor.execute(() -> held.get().body(answer));
                assertThat(client.read().bodyText()).isEqualTo(answer);
                awaitNoneLent();
            }
        }
    }

    @Test
    void pipelinedRequestsShareOneOutputAndGiveItBack() throws Exception
    {
        server = new TestServer(new HttpServerConfig());
        try (RawClient client = new RawClient(server.port()))
        {
            final StringBuilder requests = new StringBuilder();
            for (int i = 0; i < 12; i++)
            {
                requests.append("GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n");
            }
            client.send(requests.toString());
            for (int i = 0; i < 12; i++)
            {
                assertThat(client.read().bodyText()).isEqualTo("Hello, World!");
            }
            awaitNoneLent();
        }
    }

    @Test
    void aBacklogKeepsTheOutputUntilThePeerReadsIt() throws Exception
    {
        final byte[] large = TestServer.letters(1 << 20);
        // A small socket send buffer, so that most of the body waits in the backlog until the client reads.
        server = new TestServer(new HttpServerConfig().responseBufferSize(2 << 20)
            .tcp(new TcpConfig().socketSendBufferSize(16 * 1024)), Router.builder()
            .get("/large", (req, res) -> res.body(large))
            .build());
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n");
            Await.until("the response backlogged", () -> onReactor(() -> server.server.connectionCount()) == 1 &&
                onReactor(() -> server.server.recycler().outputsLent()) == 1);
            assertThat(client.read().body).isEqualTo(large);
            awaitNoneLent();
        }
    }

    @Test
    void aConnectionClosedWithAResponseOpenGivesTheOutputBackAndTheLateAnswerGoesNowhere() throws Exception
    {
        final AtomicReference<HttpResponse> held = new AtomicReference<>();
        server = new TestServer(new HttpServerConfig(), Router.builder()
            .get("/later", (req, res) -> held.set(res))
            .get("/ok", (req, res) -> res.body("ok"))
            .build());
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n");
            Await.until("the request held", () -> held.get() != null);
        }
        Await.until("the connection closed", () -> onReactor(() -> server.server.connectionCount()) == 0);
        awaitNoneLent();

        // Read before the next request goes: a server quicker than this thread would otherwise have replaced it.
        final HttpResponse first = held.get();
        try (RawClient next = new RawClient(server.port()))
        {
            next.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n");
            Await.until("the second request held", () -> held.get() != first);
            // The first connection's response, answered late, while the next connection borrows the output.
            onReactor(() -> first.status(200).header("X-Late", "yes").body("late for the first client"));
            onReactor(() -> held.get().body("second"));
            final RawClient.Response answer = next.read();
            assertThat(answer.bodyText()).isEqualTo("second");
            assertThat(answer.header("X-Late")).isNull();
        }
    }

    private void awaitNoneLent()
    {
        Await.until("every output back in the pool",
            () -> onReactor(() -> server.server.recycler().outputsLent()) == 0);
    }

    private <T> T onReactor(final Supplier<T> call)
    {
        return OnReactor.get(server.reactor, call);
    }

    private void onReactor(final Runnable call)
    {
        server.reactor.call(call);
    }
}
