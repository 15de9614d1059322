package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.tcp.TcpConfig;
import io.celer.test.TestCertificates;
import io.celer.test.Transports;

/**
 * Real clients against the server, plain and over TLS: the JDK's HttpClient, curl, and raw bytes for the
 * cases clients never send (a rejection, a late pipelined answer).
 */
class InteropTest
{
    @AutoClose
    private TestServer server;

    private void start(final Transports transport)
    {
        server = new TestServer(new HttpServerConfig().tcp(new TcpConfig().transport(transport.server())),
            TestServer.routes()
                .get("/late", (req, res) -> res.connection().reactor().schedule(100, (id, now) -> res.body("late")))
                .get("/stream", (req, res) ->
                {
                    res.beginChunked();
                    for (int i = 0; i < 100; i++)
                    {
                        res.writeChunk("line " + i + "\n");
                    }
                    res.endChunked();
                })
                .build());
    }

    private static String scheme(final Transports transport)
    {
        return transport == Transports.TLS ? "https" : "http";
    }

    @ParameterizedTest
    @EnumSource(Transports.class)
    void jdkHttpClient(final Transports transport) throws Exception
    {
        start(transport);
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .sslContext(Transports.clientContext()).connectTimeout(Duration.ofSeconds(20)).build();
        final String base = scheme(transport) + "://127.0.0.1:" + server.port();
        for (int i = 0; i < 3; i++) // the same keep-alive connection, most likely
        {
            final java.net.http.HttpResponse<String> hello = client.send(
                java.net.http.HttpRequest.newBuilder(URI.create(base + "/plaintext")).build(), BodyHandlers.ofString());
            assertThat(hello.statusCode()).isEqualTo(200);
            assertThat(hello.body()).isEqualTo("Hello, World!");
            assertThat(hello.headers().firstValue("content-type")).contains("text/plain");
        }
        final byte[] body = "x".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
        final java.net.http.HttpResponse<String> echoed = client.send(java.net.http.HttpRequest.newBuilder(
            URI.create(base + "/echo")).POST(BodyPublishers.ofByteArray(body)).build(), BodyHandlers.ofString());
        assertThat(echoed.body()).isEqualTo("streamed 100000"); // above the held body size: streamed
        final java.net.http.HttpResponse<String> streamed = client.send(
            java.net.http.HttpRequest.newBuilder(URI.create(base + "/stream")).build(), BodyHandlers.ofString());
        assertThat(streamed.body()).startsWith("line 0\nline 1\n").endsWith("line 99\n");
        final java.net.http.HttpResponse<String> missing = client.send(
            java.net.http.HttpRequest.newBuilder(URI.create(base + "/missing")).build(), BodyHandlers.ofString());
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    @ParameterizedTest
    @EnumSource(Transports.class)
    void curl(final Transports transport, @TempDir final Path dir) throws Exception
    {
        assumeTrue(new File("/usr/bin/curl").canExecute() || onPath("curl"), "curl is not installed: skipped");
        start(transport);
        final String base = scheme(transport) + "://127.0.0.1:" + server.port();
        final List<String> tls = transport == Transports.TLS ?
            List.of("--cacert", TestCertificates.get().caPem().toString()) : List.of();

        assertThat(curl(tls, "-s", "-i", base + "/plaintext")).startsWith("HTTP/1.1 200 OK").endsWith("Hello, World!");
        assertThat(curl(tls, "-s", "-I", base + "/plaintext")).contains("Content-Length: 13");
        final Path upload = Files.writeString(dir.resolve("upload.txt"), "chunked upload through curl");
        assertThat(curl(tls, "-s", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + upload, base + "/echo"))
            .isEqualTo("chunked upload through curl");
        assertThat(curl(tls, "-s", "-H", "Expect: 100-continue", "--data-binary", "@" + upload, base + "/echo"))
            .isEqualTo("chunked upload through curl");
        // Two URLs on one connection.
        assertThat(curl(tls, "-s", base + "/ok", base + "/plaintext")).isEqualTo("okHello, World!");
    }

    @ParameterizedTest
    @EnumSource(Transports.class)
    void rejectionAndLatePipelinedAnswerOverEachTransport(final Transports transport) throws Exception
    {
        start(transport);
        try (RawClient client = new RawClient(server.port(), transport))
        {
            client.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("late");
            assertThat(client.read().bodyText()).isEqualTo("ok");
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" +
                "0\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.readUntilClosed()).extracting(r -> r.status).containsExactly(400);
        }
    }

    private static boolean onPath(final String command)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            if (new File(dir, command).canExecute())
            {
                return true;
            }
        }
        return false;
    }

    private static String curl(final List<String> tls, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("curl", "--http1.1", "--max-time", "20"));
        command.addAll(tls);
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("curl %s: %s", command, output).isZero();
        return output.replace("\r\n", "\n").replaceAll("\n$", "").replace("\n", "\r\n").strip();
    }
}
