package io.celer.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.celer.http.server.HttpServer;
import io.celer.reactor.Reactor;

/**
 * Celer's three library modules work from the module path, with no JVM flag: an application module that
 * requires only {@code io.celer.websocket} compiles against them, runs a TCP echo server and an HTTP server
 * (calling into its reactor from another thread), names a callback that stalls it, and cannot reach the packages
 * they keep internal.
 */
class ModulePathTest
{
    private static final String MODULE_INFO = """
        module celer.check
        {
            requires io.celer.websocket;
        }
        """;

    private static final String MAIN = """
        package check;

        import java.io.BufferedReader;
        import java.io.InputStreamReader;
        import java.io.OutputStream;
        import java.net.Socket;
        import java.nio.charset.StandardCharsets;

        import io.celer.framing.LineFraming;
        import io.celer.http.server.HttpServer;
        import io.celer.http.server.HttpServerConfig;
        import io.celer.http.server.Router;
        import io.celer.reactor.Reactor;
        import io.celer.tcp.Connection;
        import io.celer.tcp.Handler;
        import io.celer.tcp.TcpConfig;
        import io.celer.tcp.TcpServer;

        public final class Main
        {
            public static void main(final String[] args) throws Exception
            {
                final Reactor reactor = Reactor.create().start();
                final TcpServer echo = new TcpServer(reactor, 0,
                    new TcpConfig().bindAddress("127.0.0.1").framing(() -> new LineFraming(256)), new Handler()
                    {
                        @Override
                        public void message(final Connection connection, final java.nio.ByteBuffer message)
                        {
                            connection.send(message);
                        }
                    }).open();
                final HttpServer http = new HttpServer(reactor, 0,
                    new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
                    Router.builder().get("/", (request, response) -> response.body("hello")).build()).open();
                try (Socket socket = new Socket("127.0.0.1", echo.port()))
                {
                    socket.getOutputStream().write("ping\\n".getBytes(StandardCharsets.US_ASCII));
                    final String line = new BufferedReader(
                        new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
                    System.out.println("echo " + line);
                }
                try (Socket socket = new Socket("127.0.0.1", http.port()))
                {
                    final OutputStream out = socket.getOutputStream();
                    out.write("GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n"
                        .getBytes(StandardCharsets.US_ASCII));
                    final String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                    System.out.println("http " + answer.substring(0, answer.indexOf("\\r\\n")) + " " +
                        answer.substring(answer.indexOf("\\r\\n\\r\\n") + 4));
                }
                // A callback that stalls the reactor: its class is named from the module path too.
                final java.util.concurrent.CountDownLatch slept = new java.util.concurrent.CountDownLatch(1);
                reactor.callAsync(() ->
                {
                    try
                    {
                        Thread.sleep(20);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                    slept.countDown();
                });
                slept.await();
                final io.celer.counters.CountersReader counters = io.celer.counters.Counters.process().reader();
                for (int i = 0; i < 3000 && counters.snapshot().stream().noneMatch(v ->
                    v.name().equals("reactor.stall.culprits") && v.tag().startsWith("culprit=check.Main")); i++)
                {
                    Thread.sleep(10);
                }
                System.out.println("stall named " + counters.snapshot().stream().anyMatch(v ->
                    v.name().equals("reactor.stall.culprits") && v.tag().startsWith("culprit=check.Main")));
                final Module self = Main.class.getModule();
                final Module core = Reactor.class.getModule();
                final Module httpModule = HttpServer.class.getModule();
                final Module websocket = ModuleLayer.boot().findModule("io.celer.websocket").orElseThrow();
                System.out.println("internal " + core.isExported("io.celer.reactor.internal", self) + " " +
                    httpModule.isExported("io.celer.http.internal", self) + " " +
                    websocket.isExported("io.celer.websocket.internal", self) + " " +
                    core.isExported("io.celer.reactor.internal", websocket) + " " +
                    httpModule.isExported("io.celer.http.internal", websocket));
                reactor.close();
            }
        }
        """;

    @Test
    void anApplicationModuleRunsAnEchoAndAnHttpServerAndSeesNoInternals(@TempDir final Path dir) throws Exception
    {
        final String modulePath = String.join(File.pathSeparator, location(Reactor.class), location(HttpServer.class),
            location(WebSocket.class), location(org.agrona.DirectBuffer.class));
        final Path sources = dir.resolve("src");
        Files.createDirectories(sources.resolve("check"));
        Files.writeString(sources.resolve("module-info.java"), MODULE_INFO);
        Files.writeString(sources.resolve("check/Main.java"), MAIN);
        final Path classes = dir.resolve("classes");

        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final int compiled = javac.run(null, null, null, "--module-path", modulePath, "-d", classes.toString(),
            sources.resolve("module-info.java").toString(), sources.resolve("check/Main.java").toString());
        assertThat(compiled).as("javac's exit status").isZero();

        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            // No other flag: Celer must run as it is.
            "--module-path", classes + File.pathSeparator + modulePath,
            "--module", "celer.check/check.Main"));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!exited)
        {
            process.destroyForcibly();
        }
        assertThat(exited).as("the application exited; it said:%n%s", output).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("echo ping", "http HTTP/1.1 200 OK hello",
            "internal false false false true true", "stall named true");
    }

    private static String location(final Class<?> type) throws URISyntaxException
    {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
