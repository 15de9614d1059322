package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.celer.counters.CountersReader;
import io.celer.test.Await;
import io.celer.test.Sockets;

/**
 * A server in a JVM of its own, driven over loopback, its counters read from this JVM through its counters file
 * with the reader {@code ./celer stat} uses: each counter holds exactly what the script did, and a stalled cycle
 * names the handler that stalled it.
 */
class CountersFromOutsideTest
{
    private static final int LIMIT = 3;
    private static final int LINES = 5;

    @TempDir
    Path dir;

    private Process server;

    @AfterEach
    void stop() throws Exception
    {
        if (server != null && server.isAlive())
        {
            server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void countsConnectionsMessagesBytesAndEachCloseReason() throws Exception
    {
        final BufferedReader out = startServer();
        final Path file = Path.of(out.readLine().substring("file ".length()));
        final int port = Integer.parseInt(out.readLine().substring("port ".length()));
        assertThat(file.getParent()).isEqualTo(dir);
        final CountersReader counters = CountersReader.open(file);
        assertThat(counters.pid()).isEqualTo(server.pid());
        assertThat(counters.isWriterAlive()).isTrue();

        final Socket[] clients = new Socket[LIMIT];
        long bytes = 0;
        for (int i = 0; i < LIMIT; i++)
        {
            clients[i] = new Socket("127.0.0.1", port);
            clients[i].setSoTimeout(30_000);
            final BufferedReader lines = Sockets.lineReader(clients[i]);
            for (int m = 0; m < LINES; m++)
            {
                final String line = "line " + i + " " + m;
                Sockets.sendLine(clients[i], line);
                assertThat(lines.readLine()).isEqualTo(line);
                bytes += line.length() + 1;
            }
        }
        awaitValue(counters, "tcp.connections.open", "", LIMIT);
        try (Socket overLimit = new Socket("127.0.0.1", port))
        {
            overLimit.setSoTimeout(30_000);
            assertThat(overLimit.getInputStream().read()).as("closed at the limit").isEqualTo(-1);
        }
        awaitValue(counters, "tcp.connections.refused", "cause=limit", 1);

        clients[0].close();
        awaitValue(counters, "tcp.connections.closed", "reason=peer_closed", 1);
        Sockets.sendLine(clients[1], "close");
        bytes += "close\n".length();
        assertThat(clients[1].getInputStream().read()).isEqualTo(-1);
        awaitValue(counters, "tcp.connections.closed", "reason=local_close", 1);
        awaitValue(counters, "tcp.bytes.in", "", bytes);
        final OutputStream tooLong = clients[2].getOutputStream();
        tooLong.write(("x".repeat(200) + "\n").getBytes(StandardCharsets.US_ASCII));
        tooLong.flush();
        assertThat(clients[2].getInputStream().read()).isEqualTo(-1);
        awaitValue(counters, "tcp.connections.closed", "reason=framing_error", 1);
        clients[2].close();

        awaitValue(counters, "tcp.connections.open", "", 0);
        assertThat(value(counters, "tcp.connections.accepted", "")).isEqualTo(LIMIT);
        assertThat(value(counters, "tcp.connections.opened", "")).isEqualTo(LIMIT);
        // Per-message totals are batched: written when the reactor next flushes (before it waits, or within its
        // next thousand cycles).
        awaitValue(counters, "tcp.messages.in", "", LIMIT * LINES + 1);
        awaitValue(counters, "tcp.messages.out", "", LIMIT * LINES);
        awaitValue(counters, "tcp.bytes.out", "", bytes - "close\n".length());
        assertThat(value(counters, "tcp.connections.closed", "reason=io_error")).isZero();
        assertThat(value(counters, "tcp.connections.lagging", "")).isZero();
        assertThat(value(counters, "reactor.cycles", "")).isPositive();

        server.getOutputStream().write("exit\n".getBytes(StandardCharsets.US_ASCII));
        server.getOutputStream().flush();
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(file).as("deleted at a clean exit").doesNotExist();
    }

    @Test
    void namesTheHandlerThatStalledACycle() throws Exception
    {
        final BufferedReader out = startServer();
        final Path file = Path.of(out.readLine().substring("file ".length()));
        final int port = Integer.parseInt(out.readLine().substring("port ".length()));
        final CountersReader counters = CountersReader.open(file);
        final String culprit = "culprit=" + CountingServerMain.EchoCommands.class.getName();
        try (Socket client = new Socket("127.0.0.1", port))
        {
            client.setSoTimeout(30_000);
            final BufferedReader lines = Sockets.lineReader(client);
            Sockets.sendLine(client, "slow");
            assertThat(lines.readLine()).isEqualTo("slow");
        }
        Await.until("a stall named " + culprit, () -> value(counters, "reactor.stall.culprits", culprit) >= 1,
            Await.DEFAULT);
        assertThat(value(counters, "reactor.stall.culprit.nanos", culprit)).isGreaterThanOrEqualTo(20_000_000L);
        assertThat(value(counters, "reactor.stalls", "")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aFileLeftByAKilledProcessIsStale() throws Exception
    {
        final BufferedReader out = startServer();
        final Path file = Path.of(out.readLine().substring("file ".length()));
        out.readLine();
        final CountersReader counters = CountersReader.open(file);
        awaitValue(counters, "tcp.connections.open", "", 0);
        assertThat(counters.isWriterAlive()).isTrue();
        server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(Files.exists(file)).isTrue();
        assertThat(CountersReader.open(file).isWriterAlive()).isFalse();
    }

    private BufferedReader startServer() throws Exception
    {
        server = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Dceler.counters.dir=" + dir, "-cp", System.getProperty("java.class.path"),
            CountingServerMain.class.getName(), Integer.toString(LIMIT)))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.US_ASCII));
    }

    private static long value(final CountersReader counters, final String name, final String tag)
    {
        return counters.sum("counted", name, tag);
    }

    private static void awaitValue(final CountersReader counters, final String name, final String tag,
        final long expected)
    {
        Await.until(() -> name + " " + tag + " = " + expected + ", is " + value(counters, name, tag),
            () -> value(counters, name, tag) == expected, Await.DEFAULT);
    }
}
