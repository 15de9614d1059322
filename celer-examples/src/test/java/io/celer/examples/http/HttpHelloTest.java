package io.celer.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;
import io.celer.http.server.HttpServer;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.TestCertificates;
import io.celer.test.Transports;

/**
 * {@code ./celer demo http-hello} as the command line starts it, spoken to over loopback, plain and TLS: the
 * JDK's HttpClient for the routes and echoes, raw sockets for what clients rarely send (HTTP/1.0, HEAD,
 * pipelining, a bad request, a huge declared body) and for the wire form of a streamed echo.
 */
class HttpHelloTest
{
    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    @RegisterExtension
    final Loopback loopback = new Loopback();

    private Running start(final Transports transport) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("http-hello", "--host", Loopback.HOST, "--port", "0"));
        if (transport == Transports.TLS)
        {
            args.addAll(List.of("--tls", "--keystore", TestCertificates.get().server().toString(), "--storepass",
                TestCertificates.PASSWORD));
        }
        return demos.start(args.toArray(String[]::new));
    }

    private static byte[] randomBytes(final int length, final long seed)
    {
        final byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void helpNamesTheRoutesAndTheServerOptions()
    {
        assertThat(demos.runWithoutStarting("--help")).isZero();
        assertThat(demos.out()).containsPattern("(?m)^  http-hello ").containsPattern("(?m)^  http-timeblock ");
        demos.clear();
        assertThat(demos.runWithoutStarting("http-hello", "--help")).isZero();
        assertThat(demos.out()).contains("/plaintext", "/json", "/echo", "--port", "--host", "--tls", "--keystore");
    }

    @ParameterizedTest
    @EnumSource(Transports.class)
    void answersEachRouteToTheJdkClient(final Transports transport) throws Exception
    {
        final Running demo = start(transport);
        assertThat(demos.out()).contains("http-hello: listening on 127.0.0.1:" + demo.port());
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .sslContext(Transports.clientContext()).connectTimeout(Duration.ofSeconds(20)).build();
        final String base = (transport == Transports.TLS ? "https" : "http") + "://127.0.0.1:" + demo.port();

        final HttpResponse<String> plaintext = client.send(get(base + "/plaintext"), BodyHandlers.ofString());
        assertThat(plaintext.statusCode()).isEqualTo(200);
        assertThat(plaintext.headers().firstValue("content-type")).contains("text/plain");
        assertThat(plaintext.body()).isEqualTo("Hello, World!");

        final HttpResponse<String> json = client.send(get(base + "/json"), BodyHandlers.ofString());
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("content-type")).contains("application/json");
        assertThat(json.body()).isEqualTo("{\"message\":\"Hello, World!\"}");

        assertThat(client.send(get(base + "/missing"), BodyHandlers.ofString()).statusCode()).isEqualTo(404);
        assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/json")).DELETE().build(),
            BodyHandlers.ofString()).statusCode()).isEqualTo(405);

        final HttpResponse<String> small = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
            .header("Content-Type", "text/x-demo; charset=us-ascii")
            .POST(BodyPublishers.ofString("echo me")).build(), BodyHandlers.ofString());
        assertThat(small.headers().firstValue("content-type")).contains("text/x-demo; charset=us-ascii");
        assertThat(small.headers().firstValue("content-length")).contains("7");
        assertThat(small.body()).isEqualTo("echo me");

        // Four times the read buffer: streamed back as it arrives, with no content type given.
        final byte[] large = randomBytes(256 * 1024, 1);
        final HttpResponse<byte[]> echoed = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
            .POST(BodyPublishers.ofByteArray(large)).build(), BodyHandlers.ofByteArray());
        assertThat(echoed.statusCode()).isEqualTo(200);
        assertThat(echoed.headers().firstValue("content-type")).contains("application/octet-stream");
        assertThat(echoed.body()).isEqualTo(large);
        assertThat(demos.stop(demo)).isZero();
    }

    private static HttpRequest get(final String uri)
    {
        return HttpRequest.newBuilder(URI.create(uri)).build();
    }

    @ParameterizedTest
    @EnumSource(Transports.class)
    void speaksHttp10HeadAndPipeliningOnTheWire(final Transports transport) throws Exception
    {
        final Running demo = start(transport);
        try (Socket socket = transport.connect(Loopback.HOST, demo.port()))
        {
            final InputStream in = new BufferedInputStream(socket.getInputStream());
            send(socket, "GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\nHEAD /json HTTP/1.1\r\nHost: x\r\n\r\n" +
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /json HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(WireResponse.read(in).text()).isEqualTo("Hello, World!");
            final WireResponse head = WireResponse.read(in, true);
            assertThat(head.header("Content-Length")).isEqualTo("27");
            assertThat(head.header("Content-Type")).isEqualTo("application/json");
            final WireResponse echo = WireResponse.read(in);
            assertThat(echo.header("Content-Type")).isEqualTo("application/octet-stream");
            assertThat(echo.text()).isEqualTo("hello");
            assertThat(WireResponse.read(in).text()).isEqualTo("{\"message\":\"Hello, World!\"}");
        }
        try (Socket socket = transport.connect(Loopback.HOST, demo.port()))
        {
            send(socket, "GET /json HTTP/1.0\r\n\r\n");
            final InputStream in = new BufferedInputStream(socket.getInputStream());
            final WireResponse response = WireResponse.read(in);
            assertThat(response.statusLine).isEqualTo("HTTP/1.1 200 OK");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(response.text()).isEqualTo("{\"message\":\"Hello, World!\"}");
            assertThat(in.read()).as("closed after an HTTP/1.0 response").isEqualTo(-1);
        }
    }

    @Test
    void badRequestsGetTheServersStatusAndAClose() throws Exception
    {
        final Running demo = start(Transports.PLAIN);
        // Both lengths: a smuggling vector; the request pipelined behind it is never answered.
        assertThat(statusesUntilClosed(demo, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n" +
            "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /json HTTP/1.1\r\nHost: x\r\n\r\n")).containsExactly(400);
        assertThat(statusesUntilClosed(demo, "GET /json HTTP/1.1\r\n\r\n")).containsExactly(400); // no Host
        assertThat(statusesUntilClosed(demo, "GET /json HTTP/2.5\r\nHost: x\r\n\r\n")).containsExactly(505);
        // Larger than the demo echoes: refused before a byte of it is sent.
        assertThat(statusesUntilClosed(demo, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " +
            (HelloRoutes.MAX_BODY + 1) + "\r\nExpect: 100-continue\r\n\r\n")).containsExactly(413);
    }

    private static List<Integer> statusesUntilClosed(final Running demo, final String requests) throws Exception
    {
        try (Socket socket = Transports.PLAIN.connect(Loopback.HOST, demo.port()))
        {
            send(socket, requests);
            final InputStream in = new BufferedInputStream(socket.getInputStream());
            final List<Integer> statuses = new ArrayList<>();
            while (true)
            {
                final WireResponse response = WireResponse.read(in);
                statuses.add(response.status);
                if ("close".equals(response.header("Connection")))
                {
                    assertThat(in.read()).isEqualTo(-1);
                    return statuses;
                }
            }
        }
    }

    @Test
    void streamsALargeChunkedUploadBackToAReaderThatStartsLate() throws Exception
    {
        final Running demo = start(Transports.PLAIN);
        final byte[] body = randomBytes(8 * 1024 * 1024, 2);
        try (Socket socket = Transports.PLAIN.connect(Loopback.HOST, demo.port()))
        {
            socket.setReceiveBufferSize(64 * 1024);
            final OutputStream out = socket.getOutputStream();
            // Chunks of uneven sizes, written while this thread does not read yet: the echo must wait for the
            // reader, through the server's read gate, not drop or reorder a byte.
            final CompletableFuture<Void> upload = CompletableFuture.runAsync(() ->
            {
                try
                {
                    out.write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-test\r\n" +
                        "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    final Random sizes = new Random(3);
                    for (int at = 0; at < body.length; )
                    {
                        final int n = Math.min(body.length - at, 1 + sizes.nextInt(40_000));
                        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(body, at, n);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                        at += n;
                    }
                    out.write("0\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                catch (final java.io.IOException ex)
                {
                    throw new java.io.UncheckedIOException(ex);
                }
            });
            Thread.sleep(500);
            final InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            final WireResponse echoed = WireResponse.read(in);
            assertThat(echoed.chunked).as("a body larger than the buffer comes back chunked").isTrue();
            assertThat(echoed.header("Content-Type")).isEqualTo("application/x-test");
            assertThat(echoed.body.length).isEqualTo(body.length);
            assertThat(echoed.body).isEqualTo(body);
            assertThat(WireResponse.read(in).text()).isEqualTo("Hello, World!");
            upload.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void holdsWhatATightResponseBufferRefusesAndLosesNothing() throws Exception
    {
        // Response buffers smaller than a read: the response refuses chunks, and the echo holds them until the
        // reader catches up. Small socket buffers, so the kernel does not absorb the whole body first.
        final Reactor reactor = loopback.reactor("http-hello-tight");
        final HelloRoutes routes = new HelloRoutes();
        final HttpServer server = new HttpServer(reactor, 0, HelloRoutes.config(Loopback.config()
            .writeBufferSize(8 * 1024).socketSendBufferSize(64 * 1024)).responseBufferSize(20 * 1024),
            routes.router()).open();
        final byte[] body = randomBytes(4 * 1024 * 1024, 5);
        try (Socket socket = new Socket(Loopback.HOST, server.port()))
        {
            socket.setReceiveBufferSize(64 * 1024);
            socket.setSoTimeout(30_000);
            final CompletableFuture<Void> upload = upload(socket, "POST /echo HTTP/1.1\r\nHost: x\r\n", body);
            // Not reading until the echo has had to hold what the response refused: the case under test, however
            // slowly a loaded machine runs the upload.
            Await.until("the echo to hold refused bytes", () -> OnReactor.get(reactor, routes::echoHolds) > 0);
            final WireResponse echoed = WireResponse.read(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
            assertThat(echoed.chunked).isTrue();
            assertThat(echoed.body).isEqualTo(body);
            upload.get(30, TimeUnit.SECONDS);
        }
        assertThat(OnReactor.get(reactor, routes::echoHolds)).as("times the echo held refused bytes").isPositive();
    }

    @Test
    void echoesAnHttp10UploadUntilTheClose() throws Exception
    {
        final Running demo = start(Transports.PLAIN);
        final byte[] body = randomBytes(200_000, 4);
        try (Socket socket = Transports.PLAIN.connect(Loopback.HOST, demo.port()))
        {
            final CompletableFuture<Void> upload = upload(socket, "POST /echo HTTP/1.0\r\n", body);
            final WireResponse echoed = WireResponse.read(new BufferedInputStream(socket.getInputStream()));
            assertThat(echoed.header("Transfer-Encoding")).as("HTTP/1.0 has no chunks").isNull();
            assertThat(echoed.header("Connection")).isEqualTo("close");
            assertThat(echoed.body).isEqualTo(body);
            upload.get(30, TimeUnit.SECONDS);
        }
    }

    private static void send(final Socket socket, final String text) throws Exception
    {
        final OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Writes a request head, with the body's length, and the body from another thread: the reader reads meanwhile. */
    private static CompletableFuture<Void> upload(final Socket socket, final String head, final byte[] body)
        throws IOException
    {
        final ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.write((head + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        request.write(body);
        return CompletableFuture.runAsync(() ->
        {
            try
            {
                socket.getOutputStream().write(request.toByteArray());
            }
            catch (final IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
        });
    }
}
