package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.tcp.TcpServer;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;

class DiscardServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();

    @Test
    void dropsEverythingAndKeepsTheConnection() throws Exception
    {
        final Reactor reactor = loopback.reactor("discard");
        final DiscardServer discard = new DiscardServer();
        final TcpServer server = new TcpServer(reactor, 0, Loopback.config(), discard).open();
        final byte[] bytes = new byte[1024 * 1024];
        new Random(1).nextBytes(bytes);

        try (Socket socket = new Socket("127.0.0.1", server.localAddress().getPort()))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            Await.until(() -> "1 MiB discarded, got " + discard.bytesDiscarded(),
                () -> discard.bytesDiscarded() == bytes.length, Duration.ofSeconds(30));

            // Still connected and still taking bytes, and nothing came back.
            out.write("more".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            Await.until("4 more bytes discarded", () -> discard.bytesDiscarded() == bytes.length + 4L);
            assertThat(OnReactor.get(reactor, server::connectionCount)).isEqualTo(1);
            assertThat(socket.getInputStream().available()).isZero();
        }
    }
}
