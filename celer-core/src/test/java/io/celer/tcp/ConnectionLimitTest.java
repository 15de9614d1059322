package io.celer.tcp;

import static io.celer.test.Sockets.ask;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;

/**
 * {@link TcpConfig#maxConnections}: at the limit a server either leaves the next connections waiting in the
 * kernel's accept queue until one closes, or accepts and closes them at once, counting them.
 */
class ConnectionLimitTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void closeClients() throws IOException
    {
        for (final Socket client : clients)
        {
            client.close();
        }
    }

    private TcpServer echoServer(final Reactor reactor, final TcpConfig.OverLimit policy)
    {
        return new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1").framing(() -> new LineFraming(64))
            .maxConnections(3).overLimit(policy), new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    connection.send(message);
                }
            }).open();
    }

    private Socket connect(final int port) throws IOException
    {
        final Socket client = new Socket("127.0.0.1", port);
        clients.add(client);
        return client;
    }


    @Test
    void atTheLimitTheNextConnectionWaitsUntilOneCloses() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final TcpServer server = echoServer(reactor, TcpConfig.OverLimit.WAIT);
        for (int i = 0; i < 3; i++)
        {
            assertThat(ask(connect(server.port()), "in " + i, 30_000)).isEqualTo("in " + i);
        }
        final Socket fourth = connect(server.port());
        assertThat(ask(fourth, "waiting", 300)).as("not accepted at the limit").isEqualTo("timeout");
        assertThat(OnReactor.<Integer>get(reactor, server::connectionCount)).isEqualTo(3);

        clients.remove(0).close();
        final BufferedReader in = new BufferedReader(new InputStreamReader(fourth.getInputStream(),
            StandardCharsets.US_ASCII));
        fourth.setSoTimeout(30_000);
        assertThat(in.readLine()).as("accepted once one closed; its line was waiting").isEqualTo("waiting");
        assertThat(OnReactor.<Long>get(reactor, server::refusedConnections)).isZero();
    }

    @Test
    void atTheLimitTheNextConnectionIsClosedAndCounted() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final TcpServer server = echoServer(reactor, TcpConfig.OverLimit.CLOSE);
        for (int i = 0; i < 3; i++)
        {
            assertThat(ask(connect(server.port()), "in " + i, 30_000)).isEqualTo("in " + i);
        }
        for (int i = 0; i < 2; i++)
        {
            final Socket over = connect(server.port());
            over.setSoTimeout(30_000);
            assertThat(over.getInputStream().read()).as("closed at once").isEqualTo(-1);
        }
        Await.until("two refused", () -> OnReactor.<Long>get(reactor, server::refusedConnections) == 2);

        clients.remove(0).close();
        Await.until("one closed", () -> OnReactor.<Integer>get(reactor, server::connectionCount) == 2);
        assertThat(ask(connect(server.port()), "room again", 30_000)).isEqualTo("room again");
    }

    @Test
    void aNegativeLimitIsRefused()
    {
        assertThatThrownBy(() -> new TcpConfig().maxConnections(-1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxConnections");
        assertThatThrownBy(() -> new TcpConfig().overLimit(null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overLimit");
    }
}
