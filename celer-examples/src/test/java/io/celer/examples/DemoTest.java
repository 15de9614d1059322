package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.test.Reactors;

class DemoTest
{
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private final Reactors reactors = new Reactors();

    @AfterEach
    void stop()
    {
        reactors.close();
    }

    @Test
    void helpListsTheNamesAndOptions()
    {
        assertThat(Demo.execute(out, err, DemoTest::neverStarted, "--help")).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).contains(
            "discard", "print", "echo", "echo-line", "time", "time-client", "time-beat", "throughput-client",
            "--host", "--port", "--messages", "--size");
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
    }

    @Test
    void aPortInUseFails() throws Exception
    {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
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
        final CompletableFuture<Demo.Running> started = new CompletableFuture<>();
        final CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() ->
            Demo.execute(out, err, started::complete, "echo-line", "--host", "127.0.0.1", "--port", "0"));
        final Demo.Running running = started.get(10, TimeUnit.SECONDS);
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
        final TimeServer server = new TimeServer(reactors.start("time"), 0, "127.0.0.1").open();
        final int code = Demo.execute(out, err, running -> { },
            "time-client", "--host", "127.0.0.1", "--port", Integer.toString(server.localAddress().getPort()));
        assertThat(code).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).matches(
            "(?s)time-client: connecting to 127\\.0\\.0\\.1:\\d+\\R\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\R");
    }

    @Test
    void theThroughputClientExitsWhenDone() throws Exception
    {
        final DiscardServer server = new DiscardServer(reactors.start("discard"), 0, "127.0.0.1").open();
        final int code = Demo.execute(out, err, running -> { }, "throughput-client", "--host", "127.0.0.1",
            "--port", Integer.toString(server.localAddress().getPort()), "--messages", "10000", "--size", "100");
        assertThat(code).isZero();
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).contains("sent 10,000 messages of 100 bytes");
        assertThat(server.bytesDiscarded()).isEqualTo(10_000L * 101);
    }

    private static void neverStarted(final Demo.Running running)
    {
        running.stop();
        throw new AssertionError("the demo should not have started");
    }
}
