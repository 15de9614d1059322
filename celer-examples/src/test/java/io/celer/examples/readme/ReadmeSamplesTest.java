package io.celer.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.celer.reactor.Reactor;
import io.celer.test.Sockets;

/**
 * The README's three samples run against real clients, and the README shows each exactly as it compiles here.
 */
class ReadmeSamplesTest
{
    private static final Path SOURCE =
        Path.of("src/test/java/io/celer/examples/readme/ReadmeSamples.java");

    @Test
    void theEchoServerEchoesALine() throws Exception
    {
        final int port = Sockets.freePort();
        final Reactor reactor = ReadmeSamples.echo(port);
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine()).isEqualTo("hello");
        }
        finally
        {
            reactor.close();
        }
    }

    @Test
    void theHttpRouterAnswersBothRoutes() throws Exception
    {
        final int port = Sockets.freePort();
        final Reactor reactor = ReadmeSamples.http(port);
        try
        {
            final HttpClient client = HttpClient.newHttpClient();
            final HttpResponse<String> hello = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(hello.body()).isEqualTo("hello");
            final HttpResponse<String> echo = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/echo")).POST(HttpRequest.BodyPublishers.ofString("back"))
                .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(echo.body()).isEqualTo("back");
        }
        finally
        {
            reactor.close();
        }
    }

    @Test
    void theFeedSendsItsClientsTheTime() throws Exception
    {
        final int port = Sockets.freePort();
        final Reactor reactor = ReadmeSamples.feed(port);
        final BlockingQueue<Long> stamps = new LinkedBlockingQueue<>();
        final java.net.http.WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + port + "/feed"), new java.net.http.WebSocket.Listener()
            {
                @Override
                public CompletionStage<?> onBinary(final java.net.http.WebSocket webSocket, final ByteBuffer data,
                    final boolean last)
                {
                    stamps.add(data.getLong());
                    webSocket.request(1);
                    return null;
                }
            }).get(30, TimeUnit.SECONDS);
        try
        {
            final Long first = stamps.poll(30, TimeUnit.SECONDS);
            final Long second = stamps.poll(30, TimeUnit.SECONDS);
            assertThat(first).isNotNull();
            assertThat(second).isNotNull().isGreaterThanOrEqualTo(first);
        }
        finally
        {
            socket.abort();
            reactor.close();
        }
    }

    @Test
    void theReadmeShowsEachSampleAsItCompiles() throws Exception
    {
        final String readme = Files.readString(Path.of("..", "README.md"));
        final List<String> source = Files.readAllLines(SOURCE);
        for (final String name : List.of("echo", "http", "feed"))
        {
            final int begin = source.indexOf("        // README:begin " + name);
            final int end = source.subList(begin, source.size()).indexOf("        // README:end") + begin;
            final String sample = source.subList(begin + 1, end).stream()
                .map(line -> line.length() > 8 ? line.substring(8) : line.strip())
                .collect(Collectors.joining("\n"));
            assertThat(readme).as("the README's %s sample, word for word as in %s", name, SOURCE).contains(sample);
        }
    }
}
