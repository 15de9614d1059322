package io.celer.examples.stat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.celer.counters.Counters;
import io.celer.counters.CountersReader;
import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.Reactors;
import picocli.CommandLine;

/**
 * {@code ./celer stat} over this JVM's counters file: the table, the listing, and {@code --serve}'s OpenMetrics
 * text, which Prometheus's own parser (the Python client's, when installed) must accept with the values served.
 */
class StatCommandTest
{
    private static final int REQUESTS = 7;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @TempDir
    Path dir;

    @Test
    void printsATableOfTheCountersWithTheirValues() throws Exception
    {
        final Path file = servedRequests("stat-table");
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit = new CommandLine(new StatCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
            .execute("--count", "2", "--interval", "10", file.toString());
        final String table = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(table).isZero();
        assertThat(table).contains("pid " + ProcessHandle.current().pid())
            .containsPattern("stat-table: http.responses class=2xx +" + REQUESTS + " ")
            .containsPattern("stat-table: tcp.connections.accepted +1 ")
            .containsPattern("stat-table: http.route.latency route=GET / +n=" + REQUESTS +
                " p50=[0-9.]+us p99=[0-9.]+us p99.9=[0-9.]+us max=[0-9.]+us")
            .contains("per second");
    }

    /** A route that stalls its reactor's cycle 20 ms. */
    static final class SlowRoute implements HttpHandler
    {
        @Override
        public void handle(final io.celer.http.server.HttpRequest request,
            final io.celer.http.server.HttpResponse response)
        {
            try
            {
                Thread.sleep(20);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            response.body("ok");
        }
    }

    @Test
    void namesTheRouteHandlerThatStalledACycle() throws Exception
    {
        final Path file = Counters.process().file();
        assumeTrue(file != null, "counters are kept in memory in this JVM");
        final Reactor reactor = reactors.start(new ReactorConfig().name("stat-stall"));
        final int port = new HttpServer(reactor, 0, new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            Router.builder().get("/", (request, response) -> response.body("ok")).get("/slow", new SlowRoute())
                .build()).open().port();
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            readResponse(socket.getInputStream());
        }
        final CountersReader reader = CountersReader.open(file);
        final String culprit = "culprit=" + SlowRoute.class.getName();
        // At least once: a slow close of the same connection afterwards is charged to the route that last ran.
        Await.until("the stall named", () -> reader.sum("stat-stall", "reactor.stall.culprits", culprit) >= 1);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new CommandLine(new StatCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
            .execute("--count", "1", file.toString());
        assertThat(bytes.toString(StandardCharsets.UTF_8))
            .containsPattern("stat-stall: reactor\\.stall\\.culprits culprit=" +
                java.util.regex.Pattern.quote(SlowRoute.class.getName()) + " +[1-9] ")
            .containsPattern("stat-stall: reactor\\.stall\\.culprit\\.nanos culprit=" +
                java.util.regex.Pattern.quote(SlowRoute.class.getName()) + " +\\d{2,},\\d{3},\\d{3} ");
    }

    @Test
    void listsTheFilesAndTellsAStaleOne() throws Exception
    {
        final Path live = servedRequests("stat-list");
        Files.copy(live, dir.resolve(ProcessHandle.current().pid() + ".counters"));
        // A process that is gone: a pid no process has, in an otherwise valid file.
        final Path stale = dir.resolve("999999999.counters");
        final byte[] content = Files.readAllBytes(live);
        java.nio.ByteBuffer.wrap(content).order(java.nio.ByteOrder.nativeOrder()).putLong(8, 999_999_999L);
        Files.write(stale, content);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new CommandLine(new StatCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
            .execute("--list", "--dir", dir.toString());
        assertThat(bytes.toString(StandardCharsets.UTF_8))
            .containsPattern(ProcessHandle.current().pid() + "\\.counters +pid " + ProcessHandle.current().pid() + " +running")
            .containsPattern("999999999\\.counters +pid 999999999 +STALE");
        final ByteArrayOutputStream table = new ByteArrayOutputStream();
        final int exit = new CommandLine(new StatCommand(new PrintStream(table, true, StandardCharsets.UTF_8)))
            .execute("--count", "1", stale.toString());
        assertThat(exit).isEqualTo(1);
        assertThat(table.toString(StandardCharsets.UTF_8)).contains("STALE").contains("is gone");
    }

    @Test
    void servesOpenMetricsThatPrometheusParses() throws Exception
    {
        final Path file = servedRequests("stat-serve");
        final StatCommand command = new StatCommand(new PrintStream(OutputStream.nullOutputStream()));
        final Thread serving = new Thread(() -> new CommandLine(command)
            .execute("--serve", "0", "--bind", "127.0.0.1", file.toString()), "stat-serve");
        serving.start();
        try
        {
            Await.until("serving", () -> command.servedPort != 0);
            final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + command.servedPort + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue(OpenMetricsText.CONTENT_TYPE);
            final String text = response.body();
            assertThat(text).endsWith("# EOF\n")
                .contains("celer_http_responses_total{pid=\"" + ProcessHandle.current().pid() +
                    "\",reactor=\"stat-serve\",class=\"2xx\"} " + REQUESTS + "\n")
                .contains("# TYPE celer_tcp_connections_open gauge\n")
                .contains("# TYPE celer_http_route_latency_seconds histogram\n")
                .contains("celer_http_route_latency_seconds_count{pid=\"" + ProcessHandle.current().pid() +
                    "\",reactor=\"stat-serve\",route=\"GET /\"} " + REQUESTS + "\n");
            assertParsedByPrometheus(text);
        }
        finally
        {
            serving.interrupt();
            serving.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(serving.isAlive()).isFalse();
    }

    /** The Python Prometheus client's OpenMetrics parser, which is strict, must read every family. */
    private static void assertParsedByPrometheus(final String text) throws Exception
    {
        final String script = String.join("\n",
            "import sys",
            "from prometheus_client.openmetrics.parser import text_string_to_metric_families",
            "families = list(text_string_to_metric_families(sys.stdin.read()))",
            "for f in families:",
            "    for s in f.samples:",
            "        if f.name == 'celer_http_responses' and s.labels.get('reactor') == 'stat-serve' and "
                + "s.labels.get('class') == '2xx':",
            "            print('2xx', int(s.value))",
            "        if f.name == 'celer_http_route_latency_seconds' and f.type == 'histogram' and "
                + "s.name.endswith('_count') and s.labels.get('reactor') == 'stat-serve' and "
                + "s.labels.get('route') == 'GET /':",
            "            print('route', int(s.value))",
            "print('families', len(families))");
        final Process python;
        try
        {
            python = new ProcessBuilder("python3", "-c", "import prometheus_client").start();
        }
        catch (final IOException ex)
        {
            assumeTrue(false, "no python3: " + ex.getMessage());
            return;
        }
        assumeTrue(python.waitFor() == 0, "the Python Prometheus client is not installed (pip install prometheus-client)");
        final Process parser = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true).start();
        try (OutputStream in = parser.getOutputStream())
        {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        final String out;
        try (InputStream output = parser.getInputStream())
        {
            out = new String(output.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(parser.waitFor()).as(out).isZero();
        assertThat(out).contains("2xx " + REQUESTS + "\n").contains("route " + REQUESTS + "\n")
            .containsPattern("families [1-9][0-9]+");
    }

    /** Serves REQUESTS requests on a reactor of this name over one connection; returns this JVM's counters file. */
    private Path servedRequests(final String name) throws Exception
    {
        final Path file = Counters.process().file();
        assumeTrue(file != null, "counters are kept in memory in this JVM");
        final Reactor reactor = reactors.start(new ReactorConfig().name(name));
        final int port = new HttpServer(reactor, 0, new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            Router.builder().get("/", (request, response) -> response.body("ok")).build()).open().port();
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(30_000);
            final InputStream in = socket.getInputStream();
            for (int i = 0; i < REQUESTS; i++)
            {
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                readResponse(in);
            }
        }
        final CountersReader reader = CountersReader.open(file);
        Await.until("the responses counted", () -> reader.sum(name, "http.responses", "class=2xx") == REQUESTS);
        Await.until("the connection closed", () -> reader.sum(name, "tcp.connections.open", "") == 0);
        Await.until("the responses timed", () -> reader.sum(name, "http.route.latency", "route=GET /") == REQUESTS);
        return file;
    }

    /** Reads one response to the end of its two-byte body. */
    private static void readResponse(final InputStream in) throws IOException
    {
        final StringBuilder seen = new StringBuilder();
        while (seen.indexOf("\r\n\r\nok") < 0)
        {
            final int b = in.read();
            assertThat(b).as("a response, after " + seen).isNotNegative();
            seen.append((char)b);
        }
    }
}
