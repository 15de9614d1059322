package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.LengthPrefixedFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.Transports;

/**
 * A thousand clients on one reactor, each pipelining a thousand numbered messages through an echo server, over
 * plain TCP and over TLS.
 */
class ManyClientsEchoTest
{
    private static final int CLIENTS = 1_000;
    /**
     * Fewer over TLS: a thousand TLS clients take some 25 s on two shared cores (handshakes, and a record
     * encrypted and decrypted on both sides per echo batch); two hundred still interleave hundreds of
     * handshakes and streams on one reactor.
     */
    private static final int TLS_CLIENTS = 200;
    private static final int MESSAGES = 1_000;
    private static final int WINDOW = 32;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Per-client state: what it sent and what it expects back next.
     */
    private static final class Flow
    {
        final int client;
        int sent;
        int received;

        Flow(final int client)
        {
            this.client = client;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void nothingLostDuplicatedOrReordered(final Transports transport)
    {
        final int clientCount = transport == Transports.TLS ? TLS_CLIENTS : CLIENTS;
        final Supplier<TcpConfig> common = () -> new TcpConfig()
            .bindAddress("127.0.0.1")
            .framing(() -> new LengthPrefixedFraming(2, 64))
            .readBufferSize(4096)
            .writeBufferSize(4096)
            .socketReceiveBufferSize(0)
            .socketSendBufferSize(0)
            .handshakeTimeoutMillis(Await.DEFAULT.toMillis()); // a thousand handshakes queue on two cores
        final TcpConfig config = common.get().transport(transport.server());
        final TcpConfig clientConfig = common.get().transport(transport.client());

        final AtomicLong echoed = new AtomicLong();
        final TcpServer server = new TcpServer(reactors.start("server"), 0, config, new Handler()
        {
            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                echoed.incrementAndGet();
                connection.write(message); // flushed once at the end of the cycle
            }
        }).open();

        final AtomicInteger finished = new AtomicInteger();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final ByteBuffer out = ByteBuffer.allocateDirect(12);
        final Handler client = new Handler()
        {
            @Override
            public void opened(final Connection connection)
            {
                final Flow flow = connection.attachment();
                while (flow.sent < WINDOW)
                {
                    send(connection, flow);
                }
            }

            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                final Flow flow = connection.attachment();
                final int who = message.getInt();
                final long seq = message.getLong();
                if (who != flow.client || seq != flow.received || message.hasRemaining())
                {
                    failures.add("client " + flow.client + " expected " + flow.received + " got " + who + "/" + seq);
                    connection.close();
                    return;
                }
                if (++flow.received == MESSAGES)
                {
                    finished.incrementAndGet();
                    connection.close();
                }
                else if (flow.sent < MESSAGES)
                {
                    send(connection, flow);
                }
            }

            @Override
            public void closed(final Connection connection, final CloseReason reason)
            {
                final Flow flow = connection.attachment();
                if (flow.received != MESSAGES)
                {
                    failures.add("client " + flow.client + " closed by " + reason + " after " + flow.received);
                }
            }

            private void send(final Connection connection, final Flow flow)
            {
                out.clear();
                out.putInt(flow.client).putLong(flow.sent).flip();
                if (!connection.write(out))
                {
                    failures.add("client " + flow.client + " could not write " + flow.sent);
                }
                flow.sent++;
            }
        };

        final Reactor clientReactor = reactors.start("clients");
        final List<TcpClient> clients = new ArrayList<>();
        clientReactor.call(() ->
        {
            for (int i = 0; i < clientCount; i++)
            {
                final TcpClient c = new TcpClient(clientReactor, "127.0.0.1", server.port(), clientConfig, client);
                c.connection().attach(new Flow(i));
                clients.add(c);
                c.open();
            }
        });

        Await.until(() -> finished.get() + " of " + clientCount + " clients done, failures " + failures,
            () -> finished.get() == clientCount || !failures.isEmpty(), Duration.ofSeconds(120));
        assertThat(failures).isEmpty();
        assertThat(echoed.get()).isEqualTo((long)clientCount * MESSAGES);
    }
}
