package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;

class PrintServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();

    @Test
    void printsExactlyTheBytesSent() throws Exception
    {
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final TcpServer server =
            loopback.serve("print", new PrintServer(new PrintStream(printed, false)));

        // Every byte value, then more than the server's scratch array and read buffer hold at once.
        final byte[] bytes = new byte[256 + 200_000];
        for (int i = 0; i < 256; i++)
        {
            bytes[i] = (byte)i;
        }
        final byte[] random = new byte[200_000];
        new Random(2).nextBytes(random);
        System.arraycopy(random, 0, bytes, 256, random.length);

        try (Socket socket = new Socket("127.0.0.1", server.localAddress().getPort()))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(bytes, 0, 100);
            out.flush();
            Await.until("the first 100 bytes printed", () -> printed.size() == 100, Duration.ofSeconds(30));
            out.write(bytes, 100, bytes.length - 100);
            out.flush();
            Await.until(() -> bytes.length + " bytes printed, got " + printed.size(),
                () -> printed.size() == bytes.length, Duration.ofSeconds(30));
        }
        assertThat(printed.toByteArray()).isEqualTo(bytes);
    }
}
