package io.celer.bench.http.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.celer.bench.peer.server.PeerServer;
import io.celer.examples.http.TimeBlockPage;

/**
 * What every HTTP peer must answer, checked over loopback with the JDK's client, a raw socket and curl when
 * installed.
 */
final class HttpPeerChecks
{
    static final Pattern PAGE = Pattern.compile("<html><body><h1>([0-9]{4096})</h1></body></html>");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String PLAINTEXT_REQUEST = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private HttpPeerChecks()
    {
    }

    /**
     * Runs every check against a started peer, then stops it.
     *
     * @param server the peer, configured.
     * @throws Exception if a check cannot run.
     */
    static void checkAll(final PeerServer server) throws Exception
    {
        final PeerServer.Serving serving = server.start();
        final int port = serving.port();
        try
        {
            serving.probe().begin();
            plaintext(port);
            keepAliveAndPipelining(port);
            timeBlock(port);
            http10ClosesAfterPlaintext(port);
            curl(port);
            final String stats = serving.probe().statsLine();
            final Matcher messages = Pattern.compile(" messages=([0-9]+) ").matcher(stats);
            assertThat(messages.find()).as(stats).isTrue();
            // Curl, when installed, adds its own requests.
            assertThat(Long.parseLong(messages.group(1))).as(stats).isGreaterThanOrEqualTo(9);
            assertThat(stats).startsWith("stats side=server gc=").contains(" allocated=").contains(" nanos=");
        }
        finally
        {
            server.stop();
        }
    }

    /**
     * Starts a peer of several loops, holds keep-alive connections that each get a response, and gives its stats
     * line taken while they are open; stops it.
     *
     * @param server      the peer, configured with {@code --loops}.
     * @param connections how many to hold.
     * @return the stats line.
     * @throws Exception if a check cannot run.
     */
    static String statsOfLoops(final PeerServer server, final int connections) throws Exception
    {
        final PeerServer.Serving serving = server.start();
        final List<Socket> sockets = new ArrayList<>();
        try
        {
            serving.probe().begin();
            for (int i = 0; i < connections; i++)
            {
                final Socket socket = connect(serving.port());
                sockets.add(socket);
                socket.getOutputStream().write(ascii(PLAINTEXT_REQUEST));
                assertThat(readPlaintextResponses(socket.getInputStream(), 1)).isEqualTo(1);
            }
            // Longer than a Celer reactor's look at its connections, every 10 ms.
            Thread.sleep(200);
            return serving.probe().statsLine();
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                socket.close();
            }
            server.stop();
        }
    }

    /**
     * One figure of each loop from a stats line.
     *
     * @param stats the line.
     * @param name  such as {@code messages} for {@code loop_messages}.
     * @return the loops' values, in order.
     */
    static List<Long> perLoop(final String stats, final String name)
    {
        final Matcher listed = Pattern.compile(" loop_" + name + "=([0-9,]+)").matcher(stats);
        assertThat(listed.find()).as(stats).isTrue();
        final List<Long> values = new ArrayList<>();
        for (final String value : listed.group(1).split(","))
        {
            values.add(Long.parseLong(value));
        }
        return values;
    }

    static void plaintext(final int port) throws Exception
    {
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();
        for (int i = 0; i < 2; i++)
        {
            final HttpResponse<String> response = client.send(get(port, "/plaintext"),
                HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("Hello, World!");
            assertThat(response.headers().firstValue("content-type")).hasValue("text/plain");
            assertThat(response.headers().firstValue("content-length")).hasValue("13");
            assertThat(response.headers().firstValue("server")).isPresent();
            assertThat(response.headers().firstValue("date")).isPresent();
        }
        final HttpResponse<String> missing = client.send(get(port, "/nothing"), HttpResponse.BodyHandlers.ofString());
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    static void keepAliveAndPipelining(final int port) throws IOException
    {
        try (Socket socket = connect(port))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            out.write(ascii(PLAINTEXT_REQUEST));
            assertThat(readPlaintextResponses(in, 1)).as("first on the connection").isEqualTo(1);
            out.write(ascii(PLAINTEXT_REQUEST));
            assertThat(readPlaintextResponses(in, 1)).as("second on the same connection").isEqualTo(1);
            out.write(ascii(PLAINTEXT_REQUEST + PLAINTEXT_REQUEST + PLAINTEXT_REQUEST));
            assertThat(readPlaintextResponses(in, 3)).as("three pipelined in one write").isEqualTo(3);
        }
    }

    static void timeBlock(final int port) throws Exception
    {
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();
        final HttpResponse<String> response = client.send(get(port, "/gettimeblock"),
            HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/html");
        assertThat(PAGE.matcher(response.body()).matches()).as(response.body()).isTrue();

        // The paper's ab: HTTP/1.0 without keep-alive; the server says close and closes.
        try (Socket socket = connect(port))
        {
            socket.getOutputStream().write(ascii("GET /gettimeblock HTTP/1.0\r\nHost: localhost\r\n\r\n"));
            final String all = readToEnd(socket.getInputStream());
            final int bodyAt = all.indexOf("\r\n\r\n") + 4;
            final String head = all.substring(0, bodyAt).toLowerCase(java.util.Locale.ROOT);
            // Vert.x answers an HTTP/1.0 request in HTTP/1.0, the others in 1.1: both are right.
            assertThat(head).matches("(?s)http/1\\.[01] 200 ok.*").contains("\r\nconnection: close\r\n")
                .contains("\r\ncontent-length: " + TimeBlockPage.LENGTH + "\r\n");
            assertThat(PAGE.matcher(all.substring(bodyAt)).matches()).isTrue();
        }
        // HTTP/1.1 too: the page ends the connection whatever the request asked.
        try (Socket socket = connect(port))
        {
            socket.getOutputStream().write(ascii("GET /gettimeblock HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            final String all = readToEnd(socket.getInputStream());
            assertThat(all.toLowerCase(java.util.Locale.ROOT)).contains("\r\nconnection: close\r\n");
        }
    }

    static void http10ClosesAfterPlaintext(final int port) throws IOException
    {
        try (Socket socket = connect(port))
        {
            socket.getOutputStream().write(ascii("GET /plaintext HTTP/1.0\r\n\r\n"));
            final String all = readToEnd(socket.getInputStream());
            assertThat(all).startsWith("HTTP/1.").endsWith("\r\n\r\nHello, World!");
        }
    }

    static void curl(final int port) throws Exception
    {
        if (!Files.isExecutable(Path.of("/usr/bin/curl")))
        {
            return;
        }
        final String url = "http://127.0.0.1:" + port + "/plaintext";
        final Process curl = new ProcessBuilder("/usr/bin/curl", "-s", "--max-time", String.valueOf(TIMEOUT.toSeconds()),
            "-w", " %{http_code} %{num_connects}|", url, url).redirectErrorStream(true).start();
        final String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertThat(curl.waitFor(TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS)).isTrue();
        // One connection made, then reused for the second transfer.
        assertThat(out).isEqualTo("Hello, World! 200 1|Hello, World! 200 0|");
    }

    static Socket connect(final int port) throws IOException
    {
        final Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout((int)TIMEOUT.toMillis());
        return socket;
    }

    static HttpRequest get(final int port, final String path)
    {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(TIMEOUT).build();
    }

    static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Reads whole plaintext responses until {@code count} bodies arrived; fails on a read timeout.
     */
    static int readPlaintextResponses(final InputStream in, final int count) throws IOException
    {
        final ByteArrayOutputStream seen = new ByteArrayOutputStream();
        final byte[] chunk = new byte[4096];
        int bodies = 0;
        while (bodies < count)
        {
            final int read = in.read(chunk);
            assertThat(read).as("connection closed early after " + seen).isPositive();
            seen.write(chunk, 0, read);
            bodies = occurrences(seen.toString(StandardCharsets.US_ASCII), "\r\n\r\nHello, World!");
        }
        assertThat(occurrences(seen.toString(StandardCharsets.US_ASCII), "HTTP/1.1 200 OK")).isEqualTo(count);
        return bodies;
    }

    private static String readToEnd(final InputStream in) throws IOException
    {
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }

    private static int occurrences(final String text, final String part)
    {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1))
        {
            count++;
        }
        return count;
    }
}
