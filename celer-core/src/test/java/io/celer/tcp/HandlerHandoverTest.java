package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.LineFraming;
import io.celer.framing.RawFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Sockets;
import io.celer.test.Transports;

/**
 * A connection handed to another handler: the next one hears {@code opened} and every later event, the one before
 * nothing more, and no byte of the read the handover happened in is lost; over plain TCP and TLS.
 */
class HandlerHandoverTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** Reads one line, records it, and hands the connection to {@code next}: a stand-in for an upgrade. */
    private static final class FirstLine implements Handler
    {
        final List<String> events = new CopyOnWriteArrayList<>();
        private final Handler next;

        FirstLine(final Handler next)
        {
            this.next = next;
        }

        @Override
        public void opened(final Connection connection)
        {
            events.add("opened");
        }

        @Override
        public void message(final Connection connection, final ByteBuffer data)
        {
            for (int i = data.position(); i < data.limit(); i++)
            {
                if (data.get(i) == '\n')
                {
                    final byte[] line = new byte[i - data.position()];
                    data.get(line);
                    data.get(); // the newline
                    events.add("line:" + new String(line, StandardCharsets.US_ASCII));
                    connection.handler(next);
                    return;
                }
            }
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            events.add("closed:" + reason);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void theRestOfARawReadGoesToTheNextHandlerInTheSameRead(final Transports transport) throws Exception
    {
        final RecordingHandler next = new RecordingHandler(true);
        final FirstLine first = new FirstLine(next);
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(RawFraming::new).transport(transport.server()), first).open();
        try (Socket peer = transport.connect("127.0.0.1", server.port()))
        {
            final OutputStream out = peer.getOutputStream();
            out.write("HELLO\nafter the line".getBytes(StandardCharsets.US_ASCII)); // one write, one read
            out.flush();
            assertThat(next.nextMessage()).isEqualTo("after the line");
            final byte[] echo = peer.getInputStream().readNBytes("after the line".length());
            assertThat(new String(echo, StandardCharsets.US_ASCII)).isEqualTo("after the line");

            out.write("later".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(next.nextMessage()).isEqualTo("later");
        }
        assertThat(next.awaitClosed()).isEqualTo(CloseReason.PEER_CLOSED);
        assertThat(next.events).startsWith("opened");
        assertThat(first.events).as("the first handler hears nothing after the handover")
            .containsExactly("opened", "line:HELLO");
    }

    @Test
    void withAFramingTheNextMessageGoesToTheNextHandler() throws Exception
    {
        final RecordingHandler next = new RecordingHandler(true);
        final Handler first = new Handler()
        {
            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                message.position(message.limit());
                connection.handler(next);
            }
        };
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)), first).open();
        try (Socket peer = new Socket("127.0.0.1", server.port()))
        {
            peer.getOutputStream().write("one\ntwo\nthree\n".getBytes(StandardCharsets.US_ASCII));
            final BufferedReader in = Sockets.lineReader(peer);
            assertThat(in.readLine()).isEqualTo("two");
            assertThat(in.readLine()).isEqualTo("three");
            assertThat(next.messages).containsExactly("two", "three");
        }
    }

    @Test
    void aClientStartsEachConnectWithItsFirstHandler() throws Exception
    {
        final Reactor reactor = reactors.start("client");
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1"),
            new Handler()
            {
            }).open();
        final RecordingHandler next = new RecordingHandler();
        final List<String> firstEvents = new CopyOnWriteArrayList<>();
        final Handler first = new Handler()
        {
            @Override
            public void opened(final Connection connection)
            {
                firstEvents.add("opened");
                connection.handler(next);
            }

            @Override
            public void closed(final Connection connection, final CloseReason reason)
            {
                firstEvents.add("closed:" + reason);
            }
        };
        final TcpClient client = new TcpClient(reactor, "127.0.0.1", server.port(), first).open();
        next.awaitEvent("opened");
        client.close();
        next.awaitEvent("closed:LOCAL_CLOSE");
        client.open();
        Await.until("the second connect's opened", () -> firstEvents.size() == 2);
        assertThat(firstEvents).as("no close reached the first handler: the second had the connection")
            .containsExactly("opened", "opened");
        assertThat(OnReactor.<Handler>get(reactor, () -> client.connection().handler())).isSameAs(next);
        client.close();
    }

    @Test
    void aNextHandlerThatThrowsInOpenedClosesTheConnectionAndHearsWhy() throws Exception
    {
        final RecordingHandler next = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                throw new IllegalStateException("refused");
            }
        };
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1"),
            new Handler()
            {
                @Override
                public void opened(final Connection connection)
                {
                    connection.handler(next);
                }
            }).open();
        try (Socket peer = new Socket("127.0.0.1", server.port()))
        {
            assertThat(peer.getInputStream().read()).isEqualTo(-1);
        }
        assertThat(next.awaitClosed()).isEqualTo(CloseReason.HANDLER_ERROR);
        assertThat(next.events).containsExactly("opened", "error:IllegalStateException:refused",
            "closed:HANDLER_ERROR");
    }

    @Test
    void aClosedConnectionKeepsItsHandlerAndNullIsRefused() throws Exception
    {
        final RecordingHandler first = new RecordingHandler();
        final Reactor reactor = reactors.start("server");
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), first).open();
        try (Socket peer = new Socket("127.0.0.1", server.port()))
        {
            first.awaitEvent("opened");
            final Connection connection = first.connection;
            assertThatThrownBy(() -> reactor.call(() -> connection.handler(null)))
                .isInstanceOf(NullPointerException.class);
            reactor.call(connection::close);
            first.awaitEvent("closed:LOCAL_CLOSE");
            final RecordingHandler late = new RecordingHandler();
            reactor.call(() -> connection.handler(late));
            assertThat(OnReactor.<Handler>get(reactor, connection::handler)).isSameAs(first);
            assertThat(late.events).isEmpty();
        }
    }
}
