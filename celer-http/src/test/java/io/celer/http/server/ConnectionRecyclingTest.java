package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.tcp.Connection;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;

/**
 * A server hands what its closed connections leave (request tables, response heads) to the next ones, and
 * nothing an application may still hold: a response kept open past its connection's close keeps its own head,
 * and a complete one kept against the rules cannot write to the connection that now has its head.
 */
class ConnectionRecyclingTest
{
    @AutoClose
    private TestServer server;

    /**
     * TCP's connection reuse is not for HTTP: a response hands out its connection ({@link HttpResponse#connection}),
     * which an application may keep past the close. The server turns reuse off: each connection is an object of
     * its own.
     */
    @Test
    void aServerToldToReuseItsTcpConnectionsDoesNot() throws Exception
    {
        final List<Connection> seen = new CopyOnWriteArrayList<>();
        server = new TestServer(new HttpServerConfig().tcp(new TcpConfig().reuseConnections(true)), Router.builder()
            .get("/ok", (req, res) ->
            {
                seen.add(res.connection());
                res.body("ok");
            })
            .build());
        for (int i = 0; i < 3; i++)
        {
            try (RawClient client = new RawClient(server.port()))
            {
                client.send("GET /ok HTTP/1.0\r\n\r\n");
                assertThat(client.readUntilClosed()).extracting(RawClient.Response::bodyText).containsExactly("ok");
            }
            Await.until("the connection closed", () -> onReactor(() -> server.server.connectionCount()) == 0);
        }
        assertThat(seen).hasSize(3);
        assertThat(seen.get(1)).isNotSameAs(seen.get(0));
        assertThat(seen.get(2)).isNotSameAs(seen.get(0)).isNotSameAs(seen.get(1));
    }

    @Test
    void aResponseStillOpenAtTheCloseKeepsItsHeadAndReachesNoOtherConnection() throws Exception
    {
        final AtomicReference<HttpResponse> held = new AtomicReference<>();
        final AtomicReference<ByteBuffer> okHead = new AtomicReference<>();
        server = new TestServer(new HttpServerConfig(), Router.builder()
            .get("/later", (req, res) -> held.set(res))
            .get("/ok", (req, res) ->
            {
                okHead.set(res.head);
                res.body("ok");
            })
            .build());

        try (RawClient a = new RawClient(server.port()))
        {
            a.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n");
            Await.until("the request held", () -> held.get() != null);
        }
        Await.until("the first connection closed", () -> onReactor(() -> server.server.connectionCount()) == 0);
        final ByteBuffer heldHead = onReactor(() -> held.get().head);
        assertThat(heldHead).as("an open response's head stays with it").isNotNull();

        try (RawClient b = new RawClient(server.port()))
        {
            b.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(b.read().bodyText()).isEqualTo("ok");
            assertThat(okHead.get()).isNotSameAs(heldHead);

            // The application answers the closed connection's request late: the bytes go nowhere.
            onReactor(() -> held.get().status(200).header("X-Late", "yes").body("late for the first client"));

            assertOnlyItsOwnAnswer(b, "X-Late");
        }
    }

    @Test
    void aCompleteResponseKeptAfterTheCloseCannotWriteToTheNextConnection() throws Exception
    {
        final AtomicReference<HttpResponse> kept = new AtomicReference<>();
        server = new TestServer(new HttpServerConfig(), Router.builder()
            .get("/keep", (req, res) ->
            {
                res.body("kept");
                kept.set(res);
            })
            .get("/ok", (req, res) -> res.body("ok"))
            .build());

        try (RawClient a = new RawClient(server.port()))
        {
            a.send("GET /keep HTTP/1.0\r\n\r\n");
            assertThat(a.readUntilClosed()).extracting(RawClient.Response::bodyText).containsExactly("kept");
        }
        Await.until("the first connection closed", () -> onReactor(() -> server.server.connectionCount()) == 0);
        assertThat(onReactor(() -> server.server.recycler().kept())).as("request table and head kept")
            .isEqualTo(2);
        final long made = onReactor(() -> server.server.recycler().made());

        try (RawClient b = new RawClient(server.port()))
        {
            b.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(b.read().bodyText()).isEqualTo("ok");
            assertThat(onReactor(() -> server.server.recycler().made())).as("made for the second connection")
                .isEqualTo(made);

            final String refused = onReactor(() ->
            {
                final HttpResponse stale = kept.get();
                assertThatThrownBy(() -> stale.status(200)).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> stale.header("X-Stale", "yes")).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> stale.body("stale")).isInstanceOf(IllegalStateException.class);
                return "refused";
            });
            assertThat(refused).isEqualTo("refused");

            assertOnlyItsOwnAnswer(b, "X-Stale");
        }
    }

    @Test
    void anIdleKeepAliveConnectionHoldsNoRequestTableNorResponseHead() throws Exception
    {
        server = new TestServer(new HttpServerConfig());
        try (RawClient client = new RawClient(server.port()))
        {
            for (int i = 0; i < 3; i++)
            {
                client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(client.read().bodyText()).isEqualTo("ok");
            }
            assertThat(onReactor(() -> server.server.recycler().kept()))
                .as("the request table and the head back in the pool while the connection idles")
                .isEqualTo(2);
            assertThat(onReactor(() -> server.server.recycler().made())).as("one table, one head").isEqualTo(2);
        }
    }

    @Test
    void aPoolOfZeroKeepsNothing() throws Exception
    {
        server = new TestServer(new HttpServerConfig().connectionPoolSize(0));
        for (int i = 0; i < 3; i++)
        {
            try (RawClient client = new RawClient(server.port()))
            {
                client.send("GET /ok HTTP/1.0\r\n\r\n");
                assertThat(client.readUntilClosed()).extracting(RawClient.Response::bodyText).containsExactly("ok");
            }
        }
        Await.until("the connections closed", () -> onReactor(() -> server.server.connectionCount()) == 0);
        assertThat(onReactor(() -> server.server.recycler().kept())).isZero();
        assertThat(onReactor(() -> server.server.recycler().made())).as("a table and a head per connection")
            .isEqualTo(6);
    }

    /** The connection's last request gets its own answer alone, without the header a stale response set. */
    private static void assertOnlyItsOwnAnswer(final RawClient client, final String staleHeader) throws IOException
    {
        client.send("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        final List<RawClient.Response> rest = client.readUntilClosed();
        assertThat(rest).extracting(RawClient.Response::bodyText).containsExactly("ok");
        assertThat(rest.get(0).header(staleHeader)).isNull();
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
