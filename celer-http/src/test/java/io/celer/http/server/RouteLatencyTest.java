package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.counters.CounterValue;
import io.celer.counters.Counters;
import io.celer.counters.CountersReader;
import io.celer.counters.HistogramSnapshot;
import io.celer.http.HttpMethod;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.Reactors;

/**
 * Each route's latency histogram, read as {@code ./celer stat} reads them: one per route, named by method and path,
 * one for requests no route takes, none for requests refused before a handler; each value spans from the read
 * that completed the request to the socket taking the response's last byte.
 */
class RouteLatencyTest
{
    private static final long MILLIS = TimeUnit.MILLISECONDS.toNanos(1);

    @RegisterExtension
    final Reactors reactors = new Reactors();

    private final CountersReader reader = Counters.process().reader();

    @Test
    void countsEveryRequestUnderItsRouteAndTheRestUnderUnmatched() throws Exception
    {
        final Router router = Router.builder()
            .get("/a", (req, res) -> res.body("a"))
            .prefix(HttpMethod.GET, "/static/", (req, res) -> res.body("s"))
            .post("/b", (req, res) -> res.body("b"))
            .exact(null, "/any", (req, res) -> res.body("y"))
            .build();
        final int port = serve("route-counts", new HttpServerConfig(), router);
        try (Socket socket = connect(port))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            for (int i = 0; i < 5; i++)
            {
                exchange(out, in, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", 1);
            }
            // Pipelined in one write: each is counted on its own.
            exchange(out, in, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n".repeat(6), 6);
            // Pipelined, alternating routes: more runs than a connection keeps pending, each still counted once.
            exchange(out, in, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /static/p HTTP/1.1\r\nHost: x\r\n\r\n".repeat(5), 10);
            for (int i = 0; i < 3; i++)
            {
                exchange(out, in, "GET /static/" + i + ".css HTTP/1.1\r\nHost: x\r\n\r\n", 1);
            }
            exchange(out, in, "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", 1);
            exchange(out, in, "POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 1);
            exchange(out, in, "DELETE /any HTTP/1.1\r\nHost: x\r\n\r\n", 1);
            exchange(out, in, "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n".repeat(4), 4);
            exchange(out, in, "DELETE /a HTTP/1.1\r\nHost: x\r\n\r\n", 1);
            // Refused before any handler: counted by http.rejections, not timed.
            exchange(out, in, "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n", 1);
        }
        final Map<String, Long> expected = new TreeMap<>(Map.of(
            "route=GET /a", 16L, "route=GET /static/*", 8L, "route=POST /b", 2L, "route=* /any", 1L,
            "route=unmatched", 5L, "route=all", 0L));
        Await.until("every response timed", () -> counts("route-counts").equals(expected));
        for (final CounterValue value : histograms("route-counts"))
        {
            final HistogramSnapshot h = value.histogram();
            if (h.count() > 0)
            {
                assertThat(h.max()).as(value.label()).isPositive().isLessThan(TimeUnit.SECONDS.toNanos(10));
                assertThat(h.percentile(50)).as(value.label()).isPositive().isLessThanOrEqualTo(h.max());
            }
        }
    }

    @Test
    void aServerWithoutARouterCountsUnderAll() throws Exception
    {
        final int port = serve("route-all", new HttpServerConfig(), (req, res) -> res.body("x"));
        try (Socket socket = connect(port))
        {
            for (int i = 0; i < 4; i++)
            {
                exchange(socket.getOutputStream(), socket.getInputStream(), "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", 1);
            }
        }
        Await.until("four timed", () -> counts("route-all").equals(Map.of("route=all", 4L, "route=unmatched", 0L)));
    }

    @Test
    void aResponseAnsweredLaterIsTimedFromItsRequest() throws Exception
    {
        final Router router = Router.builder()
            .get("/later", (req, res) -> res.connection().reactor().schedule(30, (id, now) -> res.body("late")))
            .build();
        final int port = serve("route-later", new HttpServerConfig(), router);
        try (Socket socket = connect(port))
        {
            for (int i = 0; i < 3; i++)
            {
                exchange(socket.getOutputStream(), socket.getInputStream(), "GET /later HTTP/1.1\r\nHost: x\r\n\r\n", 1);
            }
        }
        Await.until("three timed", () -> counts("route-later").get("route=GET /later") == 3L);
        final HistogramSnapshot h = histogram("route-later", "route=GET /later");
        // The timer wheel may fire a tick early against the clock read when the request arrived.
        assertThat(h.sum() / h.count()).as("mean, about the handler's 30 ms").isGreaterThanOrEqualTo(25 * MILLIS);
    }

    @Test
    void aResponseIsTimedUntilTheSocketTookItsLastByte() throws Exception
    {
        final byte[] body = TestServer.letters(2 << 20);
        final CompletableFuture<Long> handled = new CompletableFuture<>();
        final Router router = Router.builder().get("/big", (req, res) ->
        {
            handled.complete(System.nanoTime()); // after the read the response is timed from
            res.body(body);
        }).build();
        final HttpServerConfig config = new HttpServerConfig().responseBufferSize(4 << 20);
        config.tcp().socketSendBufferSize(64 * 1024);
        final int port = serve("route-slow", config, router);
        try (Socket socket = new Socket())
        {
            socket.setReceiveBufferSize(16 * 1024);
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            // The socket cannot take 2 MiB before this side reads: 300 ms from the server's read pass unsent.
            final long readBy = handled.get(30, TimeUnit.SECONDS);
            while (System.nanoTime() - readBy < 300 * MILLIS)
            {
                Thread.sleep(10);
            }
            assertThat(counts("route-slow").get("route=GET /big")).as("not sent yet").isZero();
            final InputStream in = socket.getInputStream();
            final byte[] chunk = new byte[64 * 1024];
            long read = 0;
            while (read < body.length)
            {
                final int n = in.read(chunk);
                assertThat(n).isPositive();
                read += n;
            }
        }
        Await.until("timed once sent", () -> counts("route-slow").get("route=GET /big") == 1L);
        assertThat(histogram("route-slow", "route=GET /big").max()).isGreaterThanOrEqualTo(300 * MILLIS);
    }

    private int serve(final String name, final HttpServerConfig config, final HttpHandler handler)
    {
        final Reactor reactor = reactors.start(name);
        config.tcp().bindAddress("127.0.0.1");
        return new HttpServer(reactor, 0, config, handler).open().port();
    }

    private static Socket connect(final int port) throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        return socket;
    }

    /** Writes requests and reads as many responses, each to the end of its one- to four-byte body. */
    private static void exchange(final OutputStream out, final InputStream in, final String requests,
        final int responses) throws IOException
    {
        out.write(requests.getBytes(StandardCharsets.US_ASCII));
        for (int r = 0; r < responses; r++)
        {
            final StringBuilder head = new StringBuilder();
            while (head.indexOf("\r\n\r\n") < 0)
            {
                final int b = in.read();
                assertThat(b).as("a response, after " + head).isNotNegative();
                head.append((char)b);
            }
            final java.util.regex.Matcher length =
                java.util.regex.Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
            assertThat(length.find()).as(head.toString()).isTrue();
            assertThat(in.readNBytes(Integer.parseInt(length.group(1)))).hasSize(Integer.parseInt(length.group(1)));
        }
    }

    private java.util.List<CounterValue> histograms(final String reactor)
    {
        return reader.snapshot().stream()
            .filter(v -> v.scope().equals(reactor) && v.name().equals("http.route.latency")).toList();
    }

    private Map<String, Long> counts(final String reactor)
    {
        final Map<String, Long> counts = new TreeMap<>();
        for (final CounterValue value : histograms(reactor))
        {
            counts.merge(value.tag(), value.value(), Long::sum);
        }
        return counts;
    }

    private HistogramSnapshot histogram(final String reactor, final String tag)
    {
        return histograms(reactor).stream().filter(v -> v.tag().equals(tag)).findFirst().orElseThrow().histogram();
    }
}
