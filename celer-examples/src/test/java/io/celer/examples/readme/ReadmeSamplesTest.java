package io.celer.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.celer.framing.LengthPrefixedFraming;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.JdkWebSocketEvents;
import io.celer.test.Sockets;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.outbound.Publisher;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * The README's three samples and the guide's run against real peers, and every java block of the README and of
 * docs/ is one of them, word for word as it compiles here; the README's Maven lines are those of the project that
 * celer-consumer-it builds against the installed artifacts.
 */
class ReadmeSamplesTest
{
    private static final Path SOURCE =
        Path.of("src/test/java/io/celer/examples/readme/ReadmeSamples.java");
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\\n(.*?)```");
    private static final Pattern XML_BLOCK = Pattern.compile("(?s)```xml\\n(.*?)```");

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
    void theGuidesThreadsSampleRunsOnTheReactorAndItsTimer() throws Exception
    {
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        final Reactor reactor = GuideSamples.threads(out);
        try
        {
            assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("on io");
            assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("100 ms later");
        }
        finally
        {
            reactor.close();
        }
    }

    @Test
    void theGuidesGroupFeedReachesClientsOnEveryMember() throws Exception
    {
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        final ReactorGroup group = ReactorGroup.create("feed", 2).start();
        final java.util.List<java.net.http.WebSocket> open = new java.util.ArrayList<>();
        try
        {
            final Publisher publisher = GuideSamples.groupFeed(group, 0, out);
            final int port = Integer.parseInt(out.poll(30, TimeUnit.SECONDS));
            final java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            final java.util.List<JdkWebSocketEvents> clients = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++)
            {
                final JdkWebSocketEvents events = new JdkWebSocketEvents();
                open.add(http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + port + "/"), events)
                    .get(30, TimeUnit.SECONDS));
                clients.add(events);
            }
            // The upgrade's answer can reach a client before its session joins the fanout: publish until all hear.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (final JdkWebSocketEvents client : clients)
            {
                String heard = null;
                while (heard == null && System.nanoTime() < deadline)
                {
                    GuideSamples.publish(publisher);
                    heard = client.poll(50, TimeUnit.MILLISECONDS);
                }
                assertThat(heard).isEqualTo("text:tick");
            }
        }
        finally
        {
            for (final java.net.http.WebSocket client : open)
            {
                client.abort();
            }
            group.close();
        }
    }

    @Test
    void theGuidesGroupServesFromBothReactors() throws Exception
    {
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        final ReactorGroup group = GuideSamples.group(0, out);
        try
        {
            final int port = Integer.parseInt(out.poll(30, TimeUnit.SECONDS));
            final java.util.Set<String> threads = new java.util.HashSet<>();
            for (int i = 0; i < 40 && threads.size() < 2; i++)
            {
                try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port))
                {
                    socket.setSoTimeout(30_000);
                    socket.getOutputStream().write("GET /where HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    final String answer = new String(socket.getInputStream().readAllBytes(),
                        java.nio.charset.StandardCharsets.US_ASCII);
                    threads.add(answer.substring(answer.indexOf("\r\n\r\n") + 4));
                }
            }
            assertThat(threads).containsExactlyInAnyOrder("web-0", "web-1");
        }
        finally
        {
            group.close();
        }
    }

    @Test
    void theGuidesClientTalksLengthPrefixedMessages() throws Exception
    {
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        final Reactor reactor = Reactor.create().start();
        try
        {
            final TcpServer echo = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
                .framing(() -> new LengthPrefixedFraming(4, 16 * 1024)), new Handler()
                {
                    @Override
                    public void message(final Connection connection, final ByteBuffer message)
                    {
                        connection.send(message);
                    }
                }).open();
            GuideSamples.client(reactor, echo.port(), out);
            assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("5 bytes");
        }
        finally
        {
            reactor.close();
        }
    }

    @Test
    void theGuidesProducerWritesEverythingToASlowReader() throws Exception
    {
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        final Reactor reactor = Reactor.create().start();
        try
        {
            final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
                .disconnectOnFullWriteBuffer(false).writeBufferSize(16 * 1024), GuideSamples.backPressure(out)).open();
            try (Socket reader = new Socket("127.0.0.1", server.port()))
            {
                final InputStream in = reader.getInputStream();
                final byte[] chunk = new byte[64 * 1024];
                long read = 0;
                while (read < 10_000L * 1024)
                {
                    final int n = in.read(chunk);
                    assertThat(n).as("bytes before the end").isPositive();
                    read += n;
                }
                assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("all written");
            }
        }
        finally
        {
            reactor.close();
        }
    }

    @Test
    void theGuidesHttpClientGetsAnAnswer() throws Exception
    {
        final int port = Sockets.freePort();
        final Reactor server = ReadmeSamples.http(port);
        final Reactor reactor = Reactor.create().start();
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        try
        {
            GuideSamples.httpClient(reactor, port, out);
            assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("200 5 bytes");
        }
        finally
        {
            reactor.close();
            server.close();
        }
    }

    @Test
    void theGuidesWebSocketClientGetsItsEcho() throws Exception
    {
        final Reactor reactor = Reactor.create().start();
        final BlockingQueue<String> out = new LinkedBlockingQueue<>();
        try
        {
            final HttpServer echo = new HttpServer(reactor, 0,
                new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
                Router.builder().get("/echo", new WebSocketUpgrade(new WebSocketConfig(), new WebSocketHandler()
                {
                    @Override
                    public void text(final WebSocket socket, final Utf8Text message)
                    {
                        socket.sendText(message.toString());
                    }
                })).build()).open();
            GuideSamples.webSocketClient(reactor, echo.port(), out);
            assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("hello");
        }
        finally
        {
            reactor.close();
        }
    }

    @Test
    void everyJavaBlockOfTheReadmeAndTheDocsIsACompiledSample() throws Exception
    {
        final Map<String, String> samples = new LinkedHashMap<>();
        for (final Path source : List.of(SOURCE, SOURCE.resolveSibling("GuideSamples.java")))
        {
            final List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++)
            {
                if (lines.get(i).startsWith("        // README:begin "))
                {
                    final int end = lines.subList(i, lines.size()).indexOf("        // README:end") + i;
                    samples.put(lines.get(i).substring("        // README:begin ".length()),
                        lines.subList(i + 1, end).stream().map(l -> l.length() > 8 ? l.substring(8) : l.strip())
                            .collect(Collectors.joining("\n")));
                }
            }
        }
        final List<Path> documents = new ArrayList<>(List.of(Path.of("..", "README.md")));
        try (Stream<Path> docs = Files.list(Path.of("..", "docs")))
        {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        int blocks = 0;
        for (final Path document : documents)
        {
            final Matcher block = JAVA_BLOCK.matcher(Files.readString(document));
            while (block.find())
            {
                blocks++;
                assertThat(samples.values()).as("a java block of %s, compiled as a sample", document)
                    .contains(block.group(1).stripTrailing());
            }
        }
        final String readme = Files.readString(Path.of("..", "README.md"));
        for (final String name : List.of("echo", "http", "feed"))
        {
            assertThat(readme).as("the README shows its %s sample", name).contains(samples.get(name));
        }
        assertThat(blocks).as("java blocks checked").isGreaterThanOrEqualTo(samples.size());
    }

    @Test
    void theReadmesMavenLinesAreThoseOfTheConsumerProject() throws Exception
    {
        final Matcher version = Pattern.compile("<artifactId>celer-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(Files.readString(Path.of("..", "pom.xml")));
        assertThat(version.find()).as("the build's version in pom.xml").isTrue();
        // The consumer's pom names the version the build installs; the README names it as a user would.
        final List<String> consumer = Files.readAllLines(Path.of("..", "celer-consumer-it", "src", "it", "consumer",
            "pom.xml")).stream().map(line -> line.replace("@project.version@", version.group(1)).strip()).toList();
        final Matcher block = XML_BLOCK.matcher(Files.readString(Path.of("..", "README.md")));
        int blocks = 0;
        while (block.find())
        {
            blocks++;
            final List<String> lines = block.group(1).stripTrailing().lines().map(String::strip).toList();
            assertThat(Collections.indexOfSubList(consumer, lines))
                .as("the README's xml block %d, line for line in the consumer project's pom.xml:%n%s", blocks,
                    block.group(1))
                .isNotNegative();
        }
        assertThat(blocks).as("xml blocks in the README").isPositive();
    }
}
