package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.tcp.TcpConfig;
import io.celer.test.Await;

/**
 * Pipelined responses leave in request order whoever answers first; a connection's reading stops, and
 * resumes with the bytes it already holds, when its budget per read, its pipeline or its peer's reading runs
 * out.
 */
class PipeliningTest
{
    @AutoClose
    private TestServer server;

    /** /late/N answers after N ms from a timer; anything else answers at once with its path. */
    private static HttpHandler lateOrNow()
    {
        return (req, res) ->
        {
            final String path = req.path().toString();
            if (path.startsWith("/late/"))
            {
                final long delay = Long.parseLong(path.substring(6));
                res.connection().reactor().schedule(delay, (id, now) -> res.body(path));
            }
            else
            {
                res.body(path);
            }
        };
    }

    private static String get(final String path)
    {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    @Test
    void laterAnswersWaitForAnEarlierLateOne() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), lateOrNow());
        try (RawClient client = new RawClient(server.port()))
        {
            client.send(get("/late/200") + get("/a") + get("/late/50") + get("/b") + get("/c"));
            for (final String expected : new String[] {"/late/200", "/a", "/late/50", "/b", "/c"})
            {
                assertThat(client.read().bodyText()).isEqualTo(expected);
            }
        }
    }

    @Test
    void aWorkerThreadAnswersThroughTheReactorQueue() throws Exception
    {
        final java.util.concurrent.ExecutorService worker = java.util.concurrent.Executors.newSingleThreadExecutor();
        try
        {
            server = new TestServer(new HttpServerConfig(), (req, res) ->
            {
                final String path = req.path().toString(); // the request is gone once handle returns
                if (!path.startsWith("/work/"))
                {
                    res.body(path);
                    return;
                }
                worker.execute(() ->
                {
                    final String result = "worked " + path.substring(6).toUpperCase();
                    res.connection().reactor().execute(() -> res.body(result));
                });
            });
            try (RawClient client = new RawClient(server.port()))
            {
                client.send(get("/work/a") + get("/now") + get("/work/b"));
                assertThat(client.read().bodyText()).isEqualTo("worked A");
                assertThat(client.read().bodyText()).isEqualTo("/now");
                assertThat(client.read().bodyText()).isEqualTo("worked B");
            }
        }
        finally
        {
            worker.shutdownNow();
        }
    }

    @Test
    void anHttp10StreamEndsTheConnectionAndNothingAfterItIsHandled() throws Exception
    {
        final AtomicInteger handled = new AtomicInteger();
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            handled.incrementAndGet();
            res.beginChunked(); // HTTP/1.0 has no chunks: the body ends with the connection
            res.writeChunk("streamed");
            res.endChunked();
        });
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            assertThat(client.readUntilClosed()).extracting(RawClient.Response::bodyText).containsExactly("streamed");
        }
        assertThat(handled.get()).isEqualTo(1);
    }

    @Test
    void aFullPipelineStopsReadingUntilTheOldestIsSent() throws Exception
    {
        final AtomicInteger handled = new AtomicInteger();
        final AtomicReference<HttpResponse> held = new AtomicReference<>();
        server = new TestServer(new HttpServerConfig().maxPipelinedRequests(2), (req, res) ->
        {
            handled.incrementAndGet();
            if (req.pathEquals("/held"))
            {
                held.set(res); // answered when the test says, however slowly the machine runs
            }
            else
            {
                res.body(req.path().toString());
            }
        });
        try (RawClient client = new RawClient(server.port()))
        {
            final StringBuilder requests = new StringBuilder(get("/held"));
            for (int i = 0; i < 10; i++)
            {
                requests.append(get("/n" + i));
            }
            client.send(requests.toString());
            Await.until("two requests taken", () -> handled.get() >= 2);
            // Nothing answers the first until the test does: a third request taken in this pause is one too many.
            Thread.sleep(100);
            assertThat(handled.get()).as("requests taken while the first is unanswered").isEqualTo(2);
            server.reactor.execute(() -> held.get().body("/held"));
            assertThat(client.read().bodyText()).isEqualTo("/held");
            for (int i = 0; i < 10; i++)
            {
                assertThat(client.read().bodyText()).isEqualTo("/n" + i);
            }
        }
    }

    @Test
    void aSmallBudgetPerReadStillServesEveryBufferedRequest() throws Exception
    {
        // All requests arrive in one read; with one request per read, the rest come only from the bytes the core
        // delivers again after a pause: nothing more arrives from the socket.
        server = new TestServer(new HttpServerConfig().maxRequestsPerRead(1), lateOrNow());
        try (RawClient client = new RawClient(server.port()))
        {
            final StringBuilder requests = new StringBuilder();
            for (int i = 0; i < 50; i++)
            {
                requests.append(get("/r" + i));
            }
            client.send(requests.toString());
            for (int i = 0; i < 50; i++)
            {
                assertThat(client.read().bodyText()).isEqualTo("/r" + i);
            }
        }
    }

    @Test
    void stopsReadingAPeerThatDoesNotReadItsResponses() throws Exception
    {
        final byte[] big = new byte[200 * 1024];
        final AtomicInteger handled = new AtomicInteger();
        server = new TestServer(new HttpServerConfig().responseBufferSize(512 * 1024)
            .tcp(new TcpConfig().socketSendBufferSize(64 * 1024)), (req, res) ->
        {
            handled.incrementAndGet();
            res.body(big);
        });
        final int requests = 200;
        try (RawClient client = new RawClient(server.port()))
        {
            final StringBuilder all = new StringBuilder();
            for (int i = 0; i < requests; i++)
            {
                all.append(get("/big"));
            }
            client.send(all.toString());
            Thread.sleep(500);
            final int whileNotReading = handled.get();
            assertThat(whileNotReading).as("requests handled while the peer reads nothing").isLessThan(requests / 2);
            for (int i = 0; i < requests; i++)
            {
                final RawClient.Response response = client.read();
                assertThat(response.body).hasSize(big.length);
            }
            assertThat(handled.get()).isEqualTo(requests);
        }
    }

    @Test
    void aResponseThatClosesTheConnectionReachesASlowPeerWholeBeforeTheClose() throws Exception
    {
        // Larger than the socket and write buffers take at once: its tail waits in the backlog when the close comes.
        final byte[] big = TestServer.letters(300 * 1024);
        server = new TestServer(new HttpServerConfig().responseBufferSize(512 * 1024)
            .tcp(new TcpConfig().socketSendBufferSize(64 * 1024)), (req, res) -> res.body(big));
        try (java.net.Socket socket = new java.net.Socket())
        {
            socket.setReceiveBufferSize(8 * 1024);
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", server.port()), 10_000);
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write((get("/big").replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"))
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            Thread.sleep(300); // the peer reads nothing meanwhile: the backlog forms
            final byte[] all = socket.getInputStream().readAllBytes();
            final String text = new String(all, java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(text).startsWith("HTTP/1.1 200");
            assertThat(all.length - text.indexOf("\r\n\r\n") - 4).as("body bytes before the close")
                .isEqualTo(big.length);
        }
    }

    @Test
    void hundredsOfPipelinedRequestsComeBackInOrder() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), lateOrNow());
        try (RawClient client = new RawClient(server.port()))
        {
            final StringBuilder requests = new StringBuilder();
            for (int i = 0; i < 500; i++)
            {
                requests.append(get(i % 50 == 0 ? "/late/5" : "/p" + i));
            }
            client.send(requests.toString());
            for (int i = 0; i < 500; i++)
            {
                assertThat(client.read().bodyText()).isEqualTo(i % 50 == 0 ? "/late/5" : "/p" + i);
            }
            client.send("GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            final List<RawClient.Response> last = client.readUntilClosed();
            assertThat(last).extracting(RawClient.Response::bodyText).containsExactly("/last");
        }
    }
}
