package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.tcp.TcpServer;
import io.celer.test.Sockets;

class EchoLineServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();
    private TcpServer server;

    @BeforeEach
    void start()
    {
        server = loopback.serve("echo-line", EchoLineServer.config(Loopback.config()),
            new EchoLineServer());
    }

    @Test
    void echoesEachLineWhateverItsEnd() throws Exception
    {
        try (Socket socket = connect())
        {
            final OutputStream out = socket.getOutputStream();
            final BufferedReader in = Sockets.lineReader(socket);
            send(out, "hello\n");
            assertThat(in.readLine()).isEqualTo("hello");
            send(out, "first\r\nsecond\nthi");
            assertThat(in.readLine()).isEqualTo("first");
            assertThat(in.readLine()).isEqualTo("second");
            send(out, "rd\r\n\n");
            assertThat(in.readLine()).isEqualTo("third");
            assertThat(in.readLine()).isEmpty();
            send(out, "byebye\n Bye\n");
            assertThat(in.readLine()).isEqualTo("byebye");
            assertThat(in.readLine()).isEqualTo(" Bye");
        }
    }

    @Test
    void byeIsAnsweredWithGoodbyeAndTheConnectionCloses() throws Exception
    {
        try (Socket socket = connect())
        {
            final OutputStream out = socket.getOutputStream();
            send(out, "one\nbye\r\nnever echoed\n");
            final byte[] rest = socket.getInputStream().readAllBytes();
            assertThat(new String(rest, StandardCharsets.US_ASCII)).isEqualTo("one\nGoodbye!\n");
        }
    }

    private Socket connect() throws Exception
    {
        final Socket socket = new Socket("127.0.0.1", server.localAddress().getPort());
        socket.setSoTimeout(30_000);
        return socket;
    }

    private static void send(final OutputStream out, final String text) throws Exception
    {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
