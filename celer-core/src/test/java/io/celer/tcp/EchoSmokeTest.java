package io.celer.tcp;

import static io.celer.test.Sockets.lineReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Reactors;
import io.celer.test.Transports;

/**
 * Lines echo to a blocking socket, over plain TCP and over TLS.
 */
class EchoSmokeTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void echoesLinesToABlockingSocket(final Transports transport) throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(128)).transport(transport.server()), new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    connection.send(message);
                }
            }).open();

        try (Socket socket = transport.connect("127.0.0.1", server.port()))
        {
            final OutputStream out = socket.getOutputStream();
            final BufferedReader in = lineReader(socket);
            out.write("hello\r\nworld\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(in.readLine()).isEqualTo("hello");
            assertThat(in.readLine()).isEqualTo("world");
        }
    }
}
