package io.celer.bench.http.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer as the harness runs it: a child process that prints its port, answers {@code stats} on stdin, and
 * reports and exits when stdin closes or on SIGTERM.
 */
@Timeout(90)
class PeerMainTest
{
    @Test
    void reportsPortAndStatsAndStopsWhenStdinCloses() throws Exception
    {
        final Process child = start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.US_ASCII));
            final int port = port(out.readLine());
            request(port);
            request(port);
            final OutputStream in = child.getOutputStream();
            in.write("stats\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            assertThat(out.readLine()).startsWith("stats side=server gc=").contains(" messages=2 ");
            in.write("begin\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            request(port);
            in.close();
            assertThat(out.readLine()).as("the final figures, since the mark").contains(" messages=1 ");
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).isZero();
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    @Test
    void reportsAndStopsOnSigterm() throws Exception
    {
        final Process child = start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.US_ASCII));
            request(port(out.readLine()));
            // SIGTERM; Process.destroy would also close our end of its output.
            child.toHandle().destroy();
            assertThat(out.readLine()).startsWith("stats side=server").contains(" messages=1 ");
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    private static Process start() throws Exception
    {
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), ThreadPerConnectionServer.class.getName(), "--port=0"))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static int port(final String line)
    {
        assertThat(line).startsWith("listening on port ");
        return Integer.parseInt(line.substring("listening on port ".length()));
    }

    private static void request(final int port) throws Exception
    {
        try (Socket socket = HttpPeerChecks.connect(port))
        {
            socket.getOutputStream().write(HttpPeerChecks.ascii("GET /plaintext HTTP/1.0\r\n\r\n"));
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                .endsWith("Hello, World!");
        }
    }
}
