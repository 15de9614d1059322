package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;
import io.celer.examples.support.PipelinedLineClient;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.TestCertificates;
import io.celer.test.TestThreads;
import io.celer.tls.TlsConfig;

/**
 * The launcher, {@code ./celer demo}, as the command line runs it: its list, each demo's help and options,
 * mistakes, and each demo started and spoken to over loopback sockets.
 */
class DemoTest
{
    private static final List<String> NAMES = List.of("discard", "print", "echo", "echo-line", "time",
        "time-client", "time-beat", "throughput-client", "queued-server", "counter-client", "backend", "fanout",
        "https-headers", "http-hello", "http-timeblock", "http-get", "http-quote-backend", "http-quote", "tick-to-trade",
        "ws-echo", "ws-client");

    @RegisterExtension
    final Loopback loopback = new Loopback();

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    @Test
    void helpListsEveryName()
    {
        assertThat(demos.runWithoutStarting("--help")).isZero();
        assertThat(demos.out()).contains("./celer demo", "--help");
        int previous = -1;
        for (final String name : NAMES)
        {
            assertThat(demos.out()).containsPattern("(?m)^  " + Pattern.quote(name) + " ");
            final int at = demos.out().indexOf("\n  " + name + " ");
            assertThat(at).as("%s listed in order", name).isGreaterThan(previous);
            previous = at;
        }
        // The options are each demo's own: none is listed at the top.
        assertThat(demos.out()).doesNotContain("--port=", "--workers=", "--backends=", "--tls");
    }

    @Test
    void aDemosHelpShowsItsOwnOptionsOnly()
    {
        assertThat(demos.runWithoutStarting("queued-server", "--help")).isZero();
        assertThat(demos.out())
            .contains("./celer demo queued-server", "--workers", "--heavy-workers", "--host", "--port", "--tls",
                "--keystore", "--storepass", "--busy-spin", "--cpu", "--help")
            .doesNotContain("--backends=", "--messages=", "--quotes=", "--truststore=");
        demos.clear();
        assertThat(demos.runWithoutStarting("throughput-client", "-h")).isZero();
        assertThat(demos.out())
            .contains("--messages", "--size", "--truststore", "default localhost")
            .doesNotContain("--workers=", "--keystore=", "--backends=");
        demos.clear();
        assertThat(demos.runWithoutStarting("echo-line", "--help")).isZero();
        assertThat(demos.out())
            .contains("./celer demo echo-line", "'bye' closes", "--host", "--port", "--tls", "--keystore", "--help")
            .doesNotContain("--workers=", "--truststore=", "--messages=");
        demos.clear();
        assertThat(demos.runWithoutStarting("counter-client", "--help")).isZero();
        assertThat(demos.out())
            .contains("./celer demo counter-client", "--truststore", "--cpu")
            .doesNotContain("--keystore=", "--workers=", "--backends=");
        demos.clear();
        assertThat(demos.runWithoutStarting("tick-to-trade", "--help")).isZero();
        assertThat(demos.out())
            .contains("--quotes", "--warmup", "--spacing-us")
            .doesNotContain("--port=", "--tls", "--workers=");
    }

    @Test
    void anUnknownNameIsAUsageError()
    {
        assertThat(demos.runWithoutStarting("chat")).isEqualTo(2);
        assertThat(demos.err()).contains("unknown demo 'chat'", "echo-line", "./celer demo --help");
    }

    @Test
    void badArgumentsAreUsageErrors()
    {
        assertThat(demos.runWithoutStarting()).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--port", "65536")).isEqualTo(2);
        assertThat(demos.err()).contains("--port must be between 0 and 65535", "./celer demo echo --help");
        assertThat(demos.runWithoutStarting("echo", "--port", "http")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("time-client", "--port", "0")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("throughput-client", "--messages", "0")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--colour")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--cpu", "-2")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--reactors", "0")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--reactors", "2", "--cpus", "1")).isEqualTo(2);
        assertThat(demos.err()).contains("--cpus must list one CPU per reactor");
        assertThat(demos.runWithoutStarting("echo", "--reactors", "2", "--cpu", "1")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--cpu", "1", "--cpus", "1")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--cpus", "-1")).isEqualTo(2);
        // Demos that run on one reactor by design do not take the option.
        assertThat(demos.runWithoutStarting("time", "--reactors", "2")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("queued-server", "--workers", "0")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("queued-server", "--heavy-workers", "65")).isEqualTo(2);
        // An option of another demo is a mistake, not silently ignored.
        assertThat(demos.runWithoutStarting("echo", "--workers", "2")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("tick-to-trade", "--port", "1")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("fanout")).isEqualTo(2);
        assertThat(demos.err()).contains("fanout needs --backends");
        assertThat(demos.runWithoutStarting("fanout", "--backends", "localhost")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("fanout", "--backends", "localhost:0")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("fanout", "--backends", "a:1,:2")).isEqualTo(2);
    }

    @Test
    void aPortInUseFails() throws Exception
    {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            assertThat(demos.runWithoutStarting("echo", "--host", Loopback.HOST, "--port",
                Integer.toString(taken.getLocalPort()))).isEqualTo(1);
            assertThat(demos.err()).contains("demo echo: cannot listen");
        }
    }

    @Test
    void tlsOptionsAreCheckedBeforeAnythingStarts()
    {
        assertThat(demos.runWithoutStarting("echo", "--tls")).isEqualTo(2);
        assertThat(demos.err()).contains("--tls needs --keystore");
        assertThat(demos.runWithoutStarting("echo", "--keystore", "x.p12")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("time-client", "--truststore", "x.p12")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("echo", "--port", "0", "--tls", "--keystore", "no-such-store.p12"))
            .isEqualTo(1);
        assertThat(demos.err()).contains("cannot set up TLS");
    }

    @Test
    void runsEchoOnTwoReactors() throws Exception
    {
        final Running running = demos.start("echo", "--host", Loopback.HOST, "--port", "0", "--reactors", "2");
        assertThat(demos.out()).startsWith("echo: listening on 127.0.0.1:" + running.port() + " on 2 reactors");
        for (int i = 0; i < 8; i++)
        {
            try (Socket socket = new Socket(Loopback.HOST, running.port()))
            {
                socket.setSoTimeout(30_000);
                socket.getOutputStream().write(("ping " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                assertThat(new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine()).isEqualTo("ping " + i);
            }
        }
        assertThat(demos.stop(running)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"http-hello, /plaintext, 'Hello, World!'", "ws-echo, /, <!DOCTYPE html>"})
    void runsAnHttpDemoOnTwoReactors(final String demo, final String path, final String bodyStart) throws Exception
    {
        final Running running = demos.start(demo, "--host", Loopback.HOST, "--port", "0", "--reactors", "2");
        assertThat(demos.out()).startsWith(demo + ": listening on 127.0.0.1:" + running.port() + " on 2 reactors");
        for (int i = 0; i < 8; i++)
        {
            try (Socket socket = new Socket(Loopback.HOST, running.port()))
            {
                socket.setSoTimeout(30_000);
                socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
                final String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).startsWith("HTTP/1.1 200 ").contains("\r\n\r\n" + bodyStart);
            }
        }
        assertThat(demos.stop(running)).isZero();
    }

    @Test
    void runsEchoLineUntilStopped() throws Exception
    {
        final Running running = demos.start("echo-line", "--host", Loopback.HOST, "--port", "0");
        assertThat(demos.out()).startsWith("echo-line: listening on 127.0.0.1:" + running.port() +
            " (echoes each line; the line 'bye' closes the connection); Ctrl-C stops it");
        try (Socket socket = new Socket(Loopback.HOST, running.port()))
        {
            socket.setSoTimeout(30_000);
            final BufferedReader in =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            socket.getOutputStream().write("hi there\r\nbye\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(in.readLine()).isEqualTo("hi there");
            assertThat(in.readLine()).isEqualTo("Goodbye!");
            assertThat(in.readLine()).isNull();
        }
        assertThat(demos.isRunning(running)).isTrue();
        assertThat(demos.stop(running)).isZero();
        assertThat(running.isFinished()).isTrue();
    }

    @Test
    void theTimeClientExitsWhenItsServerHangsUp()
    {
        final TcpServer server = loopback.serve("time", new TimeServer());
        assertThat(demos.run("time-client", "--host", Loopback.HOST, "--port", Integer.toString(server.port())))
            .isZero();
        assertThat(demos.out()).matches(
            "(?s)time-client: connecting to 127\\.0\\.0\\.1:\\d+\\R\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\R");
    }

    @Test
    void theTimeClientFailsWhenNoServerAnswers() throws Exception
    {
        final int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            port = closed.getLocalPort();
        }
        assertThat(demos.run("time-client", "--host", Loopback.HOST, "--port", Integer.toString(port)))
            .isEqualTo(1);
        assertThat(demos.err()).contains("time-client: no time received");
    }

    @Test
    void serversAndClientsSpeakTlsWithTheirStores() throws Exception
    {
        final TestCertificates certs = TestCertificates.get();
        final Running server = demos.start("time-beat", "--host", Loopback.HOST, "--port", "0", "--tls",
            "--keystore", certs.server().toString(), "--storepass", TestCertificates.PASSWORD);
        assertThat(demos.out()).contains("over TLS");
        final Running client = demos.start("time-client", "--host", "localhost", "--port",
            Integer.toString(server.port()), "--tls", "--truststore", certs.trustStore().toString(),
            "--storepass", TestCertificates.PASSWORD);
        Await.until("a time over TLS", () -> demos.out().matches("(?s).*\\d{4}-\\d\\d-\\d\\dT.*"));
        demos.stop(client);
        assertThat(demos.stop(server)).isZero();
    }

    @Test
    void httpsHeadersPrintsWhatAnHttpsServerAnswersUpToTheEmptyLine()
    {
        // An echo-line server over TLS answers the request with its own lines, the empty one last.
        final TestCertificates certs = TestCertificates.get();
        final TcpServer server = loopback.serve("https", EchoLineServer.config(Loopback.config()
            .transport(new TlsConfig().keyStore(certs.server(), TestCertificates.PASSWORD))), new EchoLineServer());
        final int code = demos.run("https-headers", "--host", "localhost", "--port", Integer.toString(server.port()),
            "--truststore", certs.trustStore().toString(), "--storepass", TestCertificates.PASSWORD);
        assertThat(code).as(demos.err()).isZero();
        assertThat(demos.out()).contains("GET / HTTP/1.0", "Host: localhost");
    }

    @Test
    void theTickToTradeDemoMeasuresAndExits()
    {
        assertThat(demos.run("tick-to-trade", "--warmup", "20000", "--quotes", "500", "--spacing-us", "10")).isZero();
        assertThat(demos.out())
            .contains("measuring 500 quotes", "tick-to-trade inside the process", "p50", "p99.9", "lost 0");
    }

    @Test
    void theThroughputClientExitsWhenDone()
    {
        final DiscardServer discard = new DiscardServer();
        final TcpServer server = loopback.serve("discard", discard);
        assertThat(demos.run("throughput-client", "--host", Loopback.HOST, "--port", Integer.toString(server.port()),
            "--messages", "10000", "--size", "100")).isZero();
        assertThat(demos.out()).contains("sent 10,000 messages of 100 bytes");
        // The client is done once the socket took its bytes; the server may still be reading them.
        Await.until(() -> "all bytes discarded, at " + discard.bytesDiscarded(),
            () -> discard.bytesDiscarded() == 10_000L * 101, Duration.ofSeconds(30));
    }

    @Test
    void runsTheQueuedServerAndStopsItsWorkers() throws Exception
    {
        final Running running = demos.start("queued-server", "--host", Loopback.HOST, "--port", "0", "--workers", "2");
        assertThat(demos.out()).startsWith("queued-server: listening on 127.0.0.1:" + running.port() + " ");
        try (PipelinedLineClient client = new PipelinedLineClient(running.port(), 10))
        {
            client.send("heavy lifting\nhi there\n");
            assertThat(List.of(client.readLine(), client.readLine()))
                .containsExactlyInAnyOrder("13: heavy lifting", "8: hi there");
        }
        assertThat(workerThreads()).isEqualTo(3);
        assertThat(demos.stop(running)).isZero();
        Await.until("the workers to stop", () -> workerThreads() == 0);
    }

    private static long workerThreads()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && t.getName().matches("celer-(light|heavy)-worker-\\d+")).count();
    }

    @Test
    void runsBackendsAndAFanoutServerInFrontOfThem() throws Exception
    {
        final int first = demos.start("backend", "--host", Loopback.HOST, "--port", "0").port();
        final int second = demos.start("backend", "--host", Loopback.HOST, "--port", "0").port();
        final int front = demos.start("fanout", "--host", Loopback.HOST, "--port", "0",
            "--backends", "127.0.0.1:" + first + ", 127.0.0.1:" + second).port();
        assertThat(demos.out())
            .contains("backend: listening on 127.0.0.1:" + first + " ")
            .contains("fanout: listening on 127.0.0.1:" + front + " ");
        // Sent before the front may have connected: requests wait for a back-end.
        final List<String> requests = List.of("one", "two", "three", "four");
        final List<String> answers = PipelinedLineClient.exchangeAsync(front, 10, requests, null)
            .get(30, TimeUnit.SECONDS);
        assertThat(answers).hasSize(4);
        for (int i = 0; i < 4; i++)
        {
            assertThat(answers.get(i)).isIn(first + ":" + requests.get(i), second + ":" + requests.get(i));
        }
    }

    @Test
    void theFanoutServerFollowsItsBackendsFile(@TempDir final Path dir) throws Exception
    {
        final int first = demos.start("backend", "--host", Loopback.HOST, "--port", "0").port();
        final int second = demos.start("backend", "--host", Loopback.HOST, "--port", "0").port();
        final Path file = dir.resolve("backends.txt");
        Files.writeString(file, "127.0.0.1:" + first + "  # the first\n");
        final int front = demos.start("fanout", "--host", Loopback.HOST, "--port", "0",
            "--backends-file", file.toString()).port();
        assertThat(PipelinedLineClient.exchangeAsync(front, 10, List.of("a", "b"), null).get(30, TimeUnit.SECONDS))
            .containsExactly(first + ":a", first + ":b");
        Files.writeString(file, "not an address\n");
        Await.until("the bad line named", () -> demos.err().contains("line 1: "));
        Files.writeString(file, "127.0.0.1:" + second + "\n");
        Await.until("the change read", () -> demos.err().contains("back-end 127.0.0.1:" + first + " removed"));
        assertThat(demos.err()).contains("back-end 127.0.0.1:" + second + " added");
        // The file's reader hands the change to the reactor's queue after printing it: requests sent in between
        // still go to the first back-end, so the test waits for the answers to come from the second.
        Await.until("the change applied", () -> PipelinedLineClient.exchangeAsync(front, 10, List.of("c", "d"), null)
            .orTimeout(30, TimeUnit.SECONDS).join().equals(List.of(second + ":c", second + ":d")));
    }

    @Test
    void theCounterClientCountsItsServersLinesAndExitsWhenItHangsUp() throws Exception
    {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final CompletableFuture<Void> server = CompletableFuture.runAsync(() ->
            {
                try (Socket socket = listener.accept())
                {
                    socket.getOutputStream().write("+\n+\n-\n".getBytes(StandardCharsets.US_ASCII));
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            }, TestThreads.pool());
            assertThat(demos.run("counter-client", "--host", Loopback.HOST,
                "--port", Integer.toString(listener.getLocalPort()))).isZero();
            server.get(30, TimeUnit.SECONDS);
            assertThat(demos.out())
                .contains("counter-client: connecting to 127.0.0.1:" + listener.getLocalPort())
                .contains("total 1 (+1 on celer-demo-counter-client)")
                .contains("total 2 (+1 on celer-demo-counter-client)")
                .contains("total 1 (-1 on celer-demo-counter-client)");
        }
    }
}
