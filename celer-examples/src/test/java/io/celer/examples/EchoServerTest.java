package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.tcp.TcpServer;

class EchoServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();
    private TcpServer server;

    @BeforeEach
    void start()
    {
        server = loopback.serve("echo", new EchoServer());
    }

    @Test
    void echoesASmallMessage() throws Exception
    {
        try (Socket socket = connect())
        {
            socket.getOutputStream().write("hello, celer".getBytes(StandardCharsets.US_ASCII));
            final byte[] echoed = socket.getInputStream().readNBytes(12);
            assertThat(new String(echoed, StandardCharsets.US_ASCII)).isEqualTo("hello, celer");
        }
    }

    @Test
    void echoesMoreThanItsBuffersHold() throws Exception
    {
        // 4 MiB: many times the 64 KiB read and write buffers.
        final byte[] bytes = new byte[4 * 1024 * 1024];
        new Random(3).nextBytes(bytes);
        try (Socket socket = connect())
        {
            final OutputStream out = socket.getOutputStream();
            // Written from another thread while this one reads, as a client of an echo server must.
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
            {
                try
                {
                    for (int i = 0; i < bytes.length; i += 10_000)
                    {
                        out.write(bytes, i, Math.min(10_000, bytes.length - i));
                    }
                    out.flush();
                }
                catch (final java.io.IOException ex)
                {
                    throw new java.io.UncheckedIOException(ex);
                }
            }, io.celer.test.TestThreads.pool());
            final InputStream in = socket.getInputStream();
            final byte[] echoed = in.readNBytes(bytes.length);
            writer.get(30, TimeUnit.SECONDS);
            assertThat(echoed).isEqualTo(bytes);
            assertThat(in.available()).isZero();
        }
    }

    private Socket connect() throws Exception
    {
        final Socket socket = new Socket("127.0.0.1", server.localAddress().getPort());
        socket.setSoTimeout(30_000);
        return socket;
    }
}
