package io.celer.tcp;

import static io.celer.test.Sockets.portOf;
import static io.celer.test.Sockets.refusingPort;
import static io.celer.test.Sockets.lineReader;
import static io.celer.test.Sockets.sendLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.FramingException;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Transports;

/**
 * Opening, closing and failing: each ends in one clear callback and never disturbs other connections; the
 * cases that involve the peer's bytes run over plain TCP and over TLS.
 */
class ConnectionLifecycleTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    private TcpServer lineEchoServer(final Transports transport, final RecordingHandler handler)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(32)).transport(transport.server()), handler).open();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aLineOverTheMaximumClosesOnlyThatConnectionWithAClearError(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = lineEchoServer(transport, handler);
        try (Socket good = transport.connect("127.0.0.1", server.port());
            Socket bad = transport.connect("127.0.0.1", server.port()))
        {
            final BufferedReader goodIn = lineReader(good);
            sendLine(good, "before");
            assertThat(goodIn.readLine()).isEqualTo("before");

            sendLine(bad, "x".repeat(40));
            assertThat(bad.getInputStream().read()).isEqualTo(-1);
            Await.until("the framing error", () -> handler.events.contains("closed:FRAMING_ERROR"));
            assertThat(handler.errors).singleElement()
                .isInstanceOf(FramingException.class)
                .extracting(Throwable::getMessage).isEqualTo("line of 40 bytes exceeds the maximum of 32");

            sendLine(good, "after");
            assertThat(goodIn.readLine()).isEqualTo("after");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aHandlerThatThrowsClosesOnlyItsConnection(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true)
        {
            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                if (message.remaining() == 4 && message.get(message.position()) == 'b')
                {
                    throw new IllegalStateException("boom");
                }
                super.message(connection, message);
            }
        };
        final TcpServer server = lineEchoServer(transport, handler);
        try (Socket good = transport.connect("127.0.0.1", server.port());
            Socket bad = transport.connect("127.0.0.1", server.port()))
        {
            sendLine(bad, "boom");
            assertThat(bad.getInputStream().read()).isEqualTo(-1);
            handler.awaitEvent("closed:HANDLER_ERROR");
            assertThat(handler.events).contains("error:IllegalStateException:boom");

            final BufferedReader goodIn = lineReader(good);
            sendLine(good, "still here");
            assertThat(goodIn.readLine()).isEqualTo("still here");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aPeerResetIsAnIoError(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = lineEchoServer(transport, handler);
        final Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(10_000);
        transport.over(socket);
        handler.awaitEvent("opened");
        socket.setSoLinger(true, 0); // close sends RST instead of FIN
        socket.close(); // the TCP socket itself: a TLS socket would say close_notify first
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.IO_ERROR);
        assertThat(handler.errors).singleElement().isInstanceOf(java.io.IOException.class);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aPeerHalfCloseStillGetsItsRepliesThenAnOrderlyClose(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = lineEchoServer(transport, handler);
        try (Socket socket = transport.connect("127.0.0.1", server.port()))
        {
            socket.getOutputStream().write("one\ntwo\n".getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            final InputStream in = socket.getInputStream();
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("one\ntwo\n");
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.PEER_CLOSED);
            assertThat(handler.errors).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aRefusedConnectEndsInConnectFailed(final Transports transport) throws Exception
    {
        try (SocketChannel reserved = refusingPort())
        {
            final RecordingHandler handler = new RecordingHandler();
            final TcpClient client = new TcpClient(reactors.start("client"), "127.0.0.1", portOf(reserved),
                new TcpConfig().transport(transport.client()), handler).open();
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.CONNECT_FAILED);
            assertThat(handler.errors).singleElement().isInstanceOf(ConnectException.class);
            assertThat(handler.events).doesNotContain("opened");
            assertThat(client.isOpen()).isFalse();
        }
    }

    @Test
    void anUnresolvableHostEndsInConnectFailed()
    {
        final RecordingHandler handler = new RecordingHandler();
        new TcpClient(reactors.start("client"), "no-such-host.invalid", 9, handler).open();
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.CONNECT_FAILED);
        assertThat(handler.errors).singleElement().extracting(Throwable::getMessage).asString()
            .contains("no-such-host.invalid");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aClientReconnectsWithBackOffUntilTheServerIsUpAndAfterItDrops(final Transports transport) throws Exception
    {
        final SocketChannel reserved = refusingPort(); // refuses until the server comes
        final int port = portOf(reserved);
        final RecordingHandler clientHandler = new RecordingHandler();
        final TcpClient client = new TcpClient(reactors.start("client"), "127.0.0.1", port,
            new TcpConfig().reconnectDelayMillis(10).maxReconnectDelayMillis(80).transport(transport.client()),
            clientHandler).open();
        Await.until("two refused connects", () -> clientHandler.events.stream()
            .filter("closed:CONNECT_FAILED"::equals).count() >= 2);

        reserved.close();
        final RecordingHandler serverHandler = new RecordingHandler();
        final Reactor serverReactor = reactors.start("server");
        final TcpServer server = new TcpServer(serverReactor, port,
            new TcpConfig().bindAddress("127.0.0.1").transport(transport.server()), serverHandler).open();
        clientHandler.awaitEvent("opened");
        Await.until("client open", client::isOpen);
        final long firstId = client.connection().id();
        // Over TLS 1.3 the client is done before the server has read its Finished.
        serverHandler.awaitEvent("opened");

        serverReactor.call(() -> serverHandler.connection.close());
        Await.until("a second connection", () -> clientHandler.events.stream()
            .filter("opened"::equals).count() == 2);
        assertThat(clientHandler.events).contains("closed:PEER_CLOSED");
        assertThat(client.connection().id()).isNotEqualTo(firstId);

        client.close();
        Await.until("client closed", () -> !client.isOpen());
        final long opens = clientHandler.events.stream().filter("opened"::equals).count();
        Thread.sleep(200);
        assertThat(clientHandler.events.stream().filter("opened"::equals).count())
            .as("no reconnect after close()").isEqualTo(opens);
        server.close();
    }

    @Test
    void theClientReadsClosedAndTheServerNoLongerListsTheConnectionInsideClosed() throws Exception
    {
        final java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        final TcpServer[] servers = new TcpServer[1];
        final TcpClient[] clients = new TcpClient[1];
        servers[0] = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1"),
            new Handler()
            {
                @Override
                public void closed(final Connection connection, final CloseReason reason)
                {
                    seen.add("server lists it: " + (servers[0].connection(connection.id()) != null));
                }
            }).open();
        clients[0] = new TcpClient(reactors.start("client"), "127.0.0.1", servers[0].port(), new TcpConfig(),
            new Handler()
            {
                @Override
                public void closed(final Connection connection, final CloseReason reason)
                {
                    seen.add("client open: " + clients[0].isOpen());
                }
            });
        clients[0].open();
        Await.until("client open", clients[0]::isOpen);
        clients[0].close();
        Await.until("both closed", () -> seen.size() == 2);
        assertThat(seen).containsExactlyInAnyOrder("client open: false", "server lists it: false");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void closingTheServerClosesEveryConnection(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = lineEchoServer(transport, handler);
        final Socket[] sockets = new Socket[3];
        for (int i = 0; i < sockets.length; i++)
        {
            sockets[i] = transport.connect("127.0.0.1", server.port());
        }
        Await.until("three opened", () -> handler.events.stream().filter("opened"::equals).count() == 3);
        server.close();
        for (final Socket socket : sockets)
        {
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            socket.close();
        }
        Await.until("three closed", () -> handler.events.stream().filter("closed:SERVER_CLOSED"::equals).count() == 3);
        assertThat(server.isOpen()).isFalse();
        try (Socket late = new Socket())
        {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> late.connect(new java.net.InetSocketAddress("127.0.0.1", server.port()), 1000))
                .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void thePortIsFreeBeforeAnyConnectionHearsOfTheServerClosing() throws Exception
    {
        // A channel closed while registered keeps its socket until the selector lets go of it: checked on the
        // reactor thread, in the close callback itself, no later select can hide that.
        final java.util.List<String> binds = new java.util.concurrent.CopyOnWriteArrayList<>();
        final int[] port = new int[1];
        final TcpServer server = new TcpServer(reactors.start("server"), 0,
            new TcpConfig().bindAddress("127.0.0.1"), new Handler()
            {
                @Override
                public void opened(final Connection connection)
                {
                    binds.add("opened");
                }

                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                }

                @Override
                public void closed(final Connection connection, final CloseReason reason)
                {
                    binds.add(tryBind(port[0]));
                }
            }).open();
        port[0] = server.port();
        try (Socket socket = new Socket("127.0.0.1", port[0]))
        {
            Await.until("accepted", () -> binds.size() == 1);
            server.close();
            Await.until("closed", () -> binds.size() == 2);
        }
        assertThat(binds).containsExactly("opened", "bound");
    }

    @Test
    void aServerClosesCleanlyBeforeItsReactorStartsAndAfterItStops() throws Exception
    {
        final Reactor unstarted = new Reactor(new io.celer.reactor.ReactorConfig().name("unstarted"));
        final TcpServer early = new TcpServer(unstarted, 0, new TcpConfig().bindAddress("127.0.0.1"), new Handler()
        {
        }).open();
        final int earlyPort = early.port();
        early.close();
        assertThat(tryBind(earlyPort)).isEqualTo("bound");
        unstarted.stop();

        final Reactor reactor = reactors.start("stopped");
        final TcpServer late = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), new Handler()
        {
        }).open();
        reactor.stop();
        late.close();
        assertThat(late.isOpen()).isFalse();
        assertThat(tryBind(late.port())).isEqualTo("bound");
    }

    private static String tryBind(final int port)
    {
        try (ServerSocket again = new ServerSocket())
        {
            again.bind(new java.net.InetSocketAddress("127.0.0.1", port));
            return "bound";
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void stoppingTheReactorClosesEverything(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler();
        final Reactor reactor = reactors.start("server");
        final TcpServer server = new TcpServer(reactor, 0,
            new TcpConfig().bindAddress("127.0.0.1").transport(transport.server()), handler).open();
        try (Socket socket = transport.connect("127.0.0.1", server.port()))
        {
            handler.awaitEvent("opened");
            reactor.stop();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(handler.events).containsExactly("opened", "closed:REACTOR_STOPPED");
            assertThat(reactor.isRunning()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aLocalCloseFlushesWhatWasWrittenFirst(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.write("first");
                connection.write("second");
                connection.close();
            }
        };
        final TcpServer server = lineEchoServer(transport, handler);
        try (Socket socket = transport.connect("127.0.0.1", server.port()))
        {
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                .isEqualTo("first\nsecond\n");
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
        }
    }

    @Test
    void aServerCannotBindABusyPort() throws Exception
    {
        try (ServerSocket busy = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            final TcpServer server = new TcpServer(reactors.start("server"), busy.getLocalPort(),
                new TcpConfig().bindAddress("127.0.0.1").reuseAddress(false), new RecordingHandler());
            org.assertj.core.api.Assertions.assertThatThrownBy(server::open)
                .isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessageContaining("cannot listen on 127.0.0.1:" + busy.getLocalPort());
        }
    }
}
