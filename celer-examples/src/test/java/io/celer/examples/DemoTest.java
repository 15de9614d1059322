package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.examples.cli.Running;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.Reactors;

class DemoTest
{
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private final Reactors reactors = new Reactors();
    // Each running demo blocks a thread until stopped: the common pool may have one thread only.
    private final java.util.concurrent.ExecutorService demos = java.util.concurrent.Executors.newCachedThreadPool();

    @AfterEach
    void stop()
    {
        demos.shutdownNow();
        reactors.close();
    }

    @Test
    void helpListsEveryName()
    {
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "--help")).isZero();
        final String help = outBytes.toString(StandardCharsets.UTF_8);
        assertThat(help).contains("./celer demo", "--help");
        for (final String name : List.of("discard", "print", "echo", "echo-line", "time", "time-client",
            "time-beat", "throughput-client", "queued-server", "counter-client", "backend", "fanout",
            "https-headers", "tick-to-trade"))
        {
            assertThat(help).containsPattern("(?m)^  " + java.util.regex.Pattern.quote(name) + " ");
        }
        // The options are each demo's own: none is listed at the top.
        assertThat(help).doesNotContain("--port=", "--workers=", "--backends=", "--tls");
    }

    @Test
    void aDemosHelpShowsItsOwnOptionsOnly()
    {
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "queued-server", "--help")).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8))
            .contains("./celer demo queued-server", "--workers", "--heavy-workers", "--host", "--port", "--tls",
                "--keystore", "--storepass", "--busy-spin", "--help")
            .doesNotContain("--backends=", "--messages=", "--quotes=", "--truststore=");
        outBytes.reset();
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "throughput-client", "-h")).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8))
            .contains("--messages", "--size", "--truststore", "default localhost")
            .doesNotContain("--workers=", "--keystore=", "--backends=");
        outBytes.reset();
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "tick-to-trade", "--help")).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8))
            .contains("--quotes", "--warmup", "--spacing-us")
            .doesNotContain("--port=", "--tls", "--workers=");
    }

    @Test
    void anUnknownNameIsAUsageError()
    {
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "chat")).isEqualTo(2);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("unknown demo 'chat'", "echo-line");
    }

    @Test
    void badArgumentsAreUsageErrors()
    {
        assertThat(Demo.execute(out, err, DemoTest::neverStarted)).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "echo", "--port", "65536")).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "echo", "--port", "http")).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "time-client", "--port", "0")).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "throughput-client", "--messages", "0"))
            .isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "echo", "--colour")).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "queued-server", "--workers", "0")).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "queued-server", "--heavy-workers", "65"))
            .isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "fanout")).isEqualTo(2);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("fanout needs --backends");
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "fanout", "--backends", "localhost")).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "fanout", "--backends", "localhost:0"))
            .isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "fanout", "--backends", "a:1,:2")).isEqualTo(2);
    }

    @Test
    void aPortInUseFails() throws Exception
    {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final int code = Demo.execute(out, err, DemoTest::neverStarted,
                "echo", "--host", "127.0.0.1", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(code).isEqualTo(1);
            assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("cannot listen");
        }
    }

    @Test
    void runsEchoLineUntilStopped() throws Exception
    {
        final CompletableFuture<Running> started = new CompletableFuture<>();
        final CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() ->
            Demo.execute(out, err, started::complete, "echo-line", "--host", "127.0.0.1", "--port", "0"), demos);
        final Running running = started.get(10, TimeUnit.SECONDS);
        try
        {
            assertThat(outBytes.toString(StandardCharsets.UTF_8))
                .startsWith("echo-line: listening on 127.0.0.1:" + running.port() + " ");
            try (Socket socket = new Socket("127.0.0.1", running.port()))
            {
                socket.setSoTimeout(10_000);
                final OutputStream socketOut = socket.getOutputStream();
                final BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
                socketOut.write("hi there\r\nbye\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(in.readLine()).isEqualTo("hi there");
                assertThat(in.readLine()).isEqualTo("Goodbye!");
                assertThat(in.readLine()).isNull();
            }
            assertThat(exit).isNotDone();
        }
        finally
        {
            running.stop();
        }
        assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(running.isFinished()).isTrue();
    }

    @Test
    void theTimeClientExitsWhenItsServerHangsUp() throws Exception
    {
        final TcpServer server = new TcpServer(reactors.start("time"), 0, new TcpConfig().bindAddress("127.0.0.1"),
            new TimeServer()).open();
        final int code = Demo.execute(out, err, running -> { },
            "time-client", "--host", "127.0.0.1", "--port", Integer.toString(server.localAddress().getPort()));
        assertThat(code).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).matches(
            "(?s)time-client: connecting to 127\\.0\\.0\\.1:\\d+\\R\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\R");
    }

    @Test
    void serversAndClientsSpeakTlsWithTheirStores() throws Exception
    {
        final io.celer.test.TestCertificates certs = io.celer.test.TestCertificates.get();
        final CompletableFuture<Running> started = new CompletableFuture<>();
        final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Demo.execute(out, err,
            started::complete, "time-beat", "--host", "127.0.0.1", "--port", "0", "--tls",
            "--keystore", certs.server().toString(), "--storepass", io.celer.test.TestCertificates.PASSWORD), demos);
        final Running running = started.get(20, TimeUnit.SECONDS);
        try
        {
            assertThat(outBytes.toString(StandardCharsets.UTF_8)).contains("over TLS");
            final ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
            final CompletableFuture<Running> clientStarted = new CompletableFuture<>();
            final CompletableFuture<Integer> client = CompletableFuture.supplyAsync(() -> Demo.execute(
                new PrintStream(clientOut, true, StandardCharsets.UTF_8), err, clientStarted::complete,
                "time-client", "--host", "localhost", "--port", Integer.toString(running.port()), "--tls",
                "--truststore", certs.trustStore().toString(), "--storepass", io.celer.test.TestCertificates.PASSWORD), demos);
            final Running clientRunning = clientStarted.get(20, TimeUnit.SECONDS);
            io.celer.test.Await.until("a time over TLS",
                () -> clientOut.toString(StandardCharsets.UTF_8).matches("(?s).*\\d{4}-\\d\\d-\\d\\dT.*"));
            clientRunning.stop();
            assertThat(client.get(10, TimeUnit.SECONDS)).isNotNull();
        }
        finally
        {
            running.stop();
        }
        assertThat(server.get(10, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void httpsHeadersPrintsWhatAnHttpsServerAnswersUpToTheEmptyLine() throws Exception
    {
        // An echo-line server over TLS answers the request with its own lines, the empty one last.
        final io.celer.test.TestCertificates certs = io.celer.test.TestCertificates.get();
        final TcpServer server = new TcpServer(reactors.start("https"), 0, EchoLineServer.config(new TcpConfig()
            .bindAddress("127.0.0.1").transport(new io.celer.tls.TlsConfig()
            .keyStore(certs.server(), io.celer.test.TestCertificates.PASSWORD))), new EchoLineServer()).open();
        final int code = Demo.execute(out, err, running -> { }, "https-headers", "--host", "localhost",
            "--port", Integer.toString(server.port()), "--truststore", certs.trustStore().toString(),
            "--storepass", io.celer.test.TestCertificates.PASSWORD);
        assertThat(code).as(errBytes.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).contains("GET / HTTP/1.0", "Host: localhost");
    }

    @Test
    void tlsOptionsAreCheckedBeforeAnythingStarts()
    {
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "echo", "--tls")).isEqualTo(2);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("--tls needs --keystore");
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "echo", "--keystore", "x.p12")).isEqualTo(2);
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "echo", "--port", "0", "--tls",
            "--keystore", "no-such-store.p12")).isEqualTo(1);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("cannot set up TLS");
    }

    @Test
    void theTickToTradeDemoMeasuresAndExits()
    {
        final int code = Demo.execute(out, err, running -> { },
            "tick-to-trade", "--warmup", "20000", "--quotes", "500", "--spacing-us", "10");
        assertThat(code).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8))
            .contains("measuring 500 quotes", "tick-to-trade inside the process", "p50", "p99.9", "lost 0");
    }

    @Test
    void theThroughputClientExitsWhenDone() throws Exception
    {
        final DiscardServer discard = new DiscardServer();
        final TcpServer server = new TcpServer(reactors.start("discard"), 0,
            new TcpConfig().bindAddress("127.0.0.1"), discard).open();
        final int code = Demo.execute(out, err, running -> { }, "throughput-client", "--host", "127.0.0.1",
            "--port", Integer.toString(server.localAddress().getPort()), "--messages", "10000", "--size", "100");
        assertThat(code).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).contains("sent 10,000 messages of 100 bytes");
        // The client is done once the socket took its bytes; the server may still be reading them.
        io.celer.test.Await.until(() -> "all bytes discarded, at " + discard.bytesDiscarded(),
            () -> discard.bytesDiscarded() == 10_000L * 101, java.time.Duration.ofSeconds(30));
    }

    @Test
    void runsTheQueuedServerAndStopsItsWorkers() throws Exception
    {
        final CompletableFuture<Running> started = new CompletableFuture<>();
        final CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> Demo.execute(out, err,
            started::complete, "queued-server", "--host", "127.0.0.1", "--port", "0", "--workers", "2"), demos);
        final Running running = started.get(10, TimeUnit.SECONDS);
        try
        {
            assertThat(outBytes.toString(StandardCharsets.UTF_8))
                .startsWith("queued-server: listening on 127.0.0.1:" + running.port() + " ");
            try (PipelinedLineClient client = new PipelinedLineClient(running.port(), 10))
            {
                client.send("heavy lifting\nhi there\n");
                assertThat(List.of(client.readLine(), client.readLine()))
                    .containsExactlyInAnyOrder("13: heavy lifting", "8: hi there");
            }
            assertThat(workerThreads()).isEqualTo(3);
        }
        finally
        {
            running.stop();
        }
        assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
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
        final List<Running> runnings = new ArrayList<>();
        try
        {
            runnings.add(startServer("backend", "--host", "127.0.0.1", "--port", "0"));
            runnings.add(startServer("backend", "--host", "127.0.0.1", "--port", "0"));
            final int first = runnings.get(0).port();
            final int second = runnings.get(1).port();
            runnings.add(startServer("fanout", "--host", "127.0.0.1", "--port", "0",
                "--backends", "127.0.0.1:" + first + ", 127.0.0.1:" + second));
            assertThat(outBytes.toString(StandardCharsets.UTF_8))
                .contains("backend: listening on 127.0.0.1:" + first + " ")
                .contains("fanout: listening on 127.0.0.1:" + runnings.get(2).port() + " ");
            try (PipelinedLineClient client = new PipelinedLineClient(runnings.get(2).port(), 10))
            {
                // Sent before the front may have connected: requests wait for a back-end.
                final List<String> answers =
                    client.exchange(List.of("one", "two", "three", "four"), null);
                assertThat(answers).hasSize(4);
                final String[] requests = {"one", "two", "three", "four"};
                for (int i = 0; i < 4; i++)
                {
                    assertThat(answers.get(i)).isIn(first + ":" + requests[i], second + ":" + requests[i]);
                }
            }
        }
        finally
        {
            runnings.forEach(Running::stop);
        }
    }

    private Running startServer(final String... args) throws Exception
    {
        final CompletableFuture<Running> started = new CompletableFuture<>();
        final CompletableFuture<Integer> exit =
            CompletableFuture.supplyAsync(() -> Demo.execute(out, err, started::complete, args), demos);
        try
        {
            return started.get(10, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            throw new AssertionError("did not start, exit " + exit.getNow(null) + ": " +
                errBytes.toString(StandardCharsets.UTF_8), ex);
        }
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
            }, io.celer.test.TestThreads.pool());
            final int code = Demo.execute(out, err, running -> { }, "counter-client", "--host", "127.0.0.1",
                "--port", Integer.toString(listener.getLocalPort()));
            server.get(10, TimeUnit.SECONDS);
            assertThat(code).isZero();
            assertThat(outBytes.toString(StandardCharsets.UTF_8))
                .contains("counter-client: connecting to 127.0.0.1:" + listener.getLocalPort())
                .contains("total 1 (+1 on celer-demo-counter-client)")
                .contains("total 2 (+1 on celer-demo-counter-client)")
                .contains("total 1 (-1 on celer-demo-counter-client)");
        }
    }

    private static void neverStarted(final Running running)
    {
        running.stop();
        throw new AssertionError("the demo should not have started");
    }
}
