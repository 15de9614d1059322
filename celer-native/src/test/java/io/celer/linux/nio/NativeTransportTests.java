package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.channels.spi.SelectorProvider;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.FixedSizeFraming;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.CloseReason;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.PingClient;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.SteadyAllocation;
import io.celer.test.Transports;
import io.celer.udp.UdpConfig;
import io.celer.udp.UdpEndpoint;

/**
 * Celer's reactor, TCP and UDP layers on a native provider, unchanged above it: a server and a client echo, closes
 * are told with their reasons, many connections come and go without one's events reaching another, a round trip
 * allocates nothing on either reactor thread, and a UDP endpoint echoes. Run on each provider by its subclass, as
 * Netty's testsuite runs its socket tests over each transport.
 */
abstract class NativeTransportTests
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * The provider under test.
     */
    abstract SelectorProvider provider();

    /**
     * Whether the provider's channels must do their I/O on the reactor thread alone.
     */
    abstract boolean confinesChannelIo();

    @Test
    void aTlsHandshakesWorkLeavesTheReactorOnEveryTransport() throws Exception
    {
        final Reactor reactor = nativeReactor("native-tls");
        assertThat(reactor.internals().confinesChannelIo()).isEqualTo(confinesChannelIo());
        final java.util.concurrent.atomic.AtomicInteger steps = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try
        {
            final RecordingHandler handler = new RecordingHandler(true);
            final TcpServer server = new TcpServer(reactor, 0, lines().transport(
                ((io.celer.tls.TlsConfig)Transports.TLS.server()).handshakeExecutor(step ->
                {
                    steps.incrementAndGet();
                    pool.execute(step);
                })), handler).open();
            try (Socket socket = Transports.TLS.connect("127.0.0.1", server.port()))
            {
                socket.setSoTimeout(30_000);
                socket.getOutputStream().write("sealed\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine()).isEqualTo("sealed");
            }
            // Where the rings allow no I/O elsewhere, the steps make engine calls only and the reactor does the I/O.
            assertThat(steps.get()).as("handshake steps handed to the executor").isPositive();
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    Reactor nativeReactor(final String name)
    {
        return reactors.start(new ReactorConfig().name(name).selectorProvider(provider()));
    }

    private static TcpConfig lines()
    {
        return new TcpConfig().bindAddress("127.0.0.1").framing(() -> new LineFraming(256));
    }

    @ParameterizedTest
    @EnumSource(Transports.class)
    void aServerEchoesToAJdkSocketAndHearsItsClose(final Transports transport) throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = new TcpServer(nativeReactor("native-server"), 0,
            lines().transport(transport.server()), handler).open();
        try (Socket socket = transport.connect("127.0.0.1", server.port()))
        {
            socket.setSoTimeout(30_000);
            final BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                StandardCharsets.US_ASCII));
            for (int i = 0; i < 100; i++)
            {
                socket.getOutputStream().write(("line " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                assertThat(in.readLine()).isEqualTo("line " + i);
            }
            assertThat(handler.connection.remoteAddress().getPort()).isEqualTo(socket.getLocalPort());
        }
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.PEER_CLOSED);
    }

    @Test
    void aClientConnectsAndAFailedConnectIsTold() throws Exception
    {
        final RecordingHandler serverSide = new RecordingHandler(true);
        final TcpServer server = new TcpServer(nativeReactor("native-server"), 0, lines(), serverSide).open();
        final RecordingHandler client = RecordingHandler.sendingOnOpen("hello\n");
        new TcpClient(nativeReactor("native-client"), "127.0.0.1", server.port(), lines(), client).open();
        assertThat(client.nextMessage()).isEqualTo("hello");

        final int closedPort;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0))
        {
            closedPort = probe.getLocalPort();
        }
        final RecordingHandler refused = new RecordingHandler();
        new TcpClient(nativeReactor("native-refused"), "127.0.0.1", closedPort,
            lines(), refused).open();
        Await.until("the refused connect told", () -> refused.events.contains("closed:CONNECT_FAILED"));
    }

    @Test
    void anIpv6ServerAndClientEcho() throws Exception
    {
        assumeIpv6Loopback();
        final RecordingHandler serverSide = new RecordingHandler(true);
        final TcpServer server = new TcpServer(nativeReactor("native-server"), 0,
            new TcpConfig().bindAddress("::1").framing(() -> new LineFraming(256)), serverSide).open();
        final RecordingHandler client = RecordingHandler.sendingOnOpen("over six\n");
        new TcpClient(nativeReactor("native-client"), "::1", server.port(), lines(), client).open();
        assertThat(client.nextMessage()).isEqualTo("over six");
        assertThat(serverSide.connection.remoteAddress().getAddress()).isInstanceOf(Inet6Address.class)
            .isEqualTo(InetAddress.getByName("::1"));
        assertThat(client.connection.remoteAddress().getPort()).isEqualTo(server.port());
    }

    @Test
    void aListenerOnEveryAddressTakesBothFamiliesAndSeesIpv4PeersAsIpv4() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = new TcpServer(nativeReactor("native-server"), 0,
            new TcpConfig().bindAddress("0.0.0.0").framing(() -> new LineFraming(256)), handler).open();
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("four\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine()).isEqualTo("four");
            // As from the JDK's channels: the IPv4 address, not ::ffff:127.0.0.1.
            assertThat(handler.connection.remoteAddress().getAddress()).isInstanceOf(Inet4Address.class)
                .isEqualTo(InetAddress.getByName("127.0.0.1"));
            assertThat(handler.connection.remoteAddress().getPort()).isEqualTo(socket.getLocalPort());
        }
        assumeIpv6Loopback();
        try (Socket socket = new Socket("::1", server.port()))
        {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("six\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine()).isEqualTo("six");
        }
    }

    private static void assumeIpv6Loopback()
    {
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, InetAddress.getByName("::1")))
        {
            assumeTrue(probe.isBound(), "no IPv6 loopback here");
        }
        catch (final java.io.IOException none)
        {
            assumeTrue(false, "no IPv6 loopback here: " + none.getMessage());
        }
    }

    @Test
    void manyConnectionsComeAndGoAndEachGetsOnlyItsOwnBytes() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = new TcpServer(nativeReactor("native-server"), 0, lines(), handler).open();
        for (int round = 0; round < 5; round++)
        {
            final Socket[] sockets = new Socket[200];
            for (int i = 0; i < sockets.length; i++)
            {
                sockets[i] = new Socket("127.0.0.1", server.port());
                sockets[i].setSoTimeout(30_000);
                sockets[i].getOutputStream().write(("c" + i + "\n").getBytes(StandardCharsets.US_ASCII));
            }
            for (int i = 0; i < sockets.length; i++)
            {
                final BufferedReader in = new BufferedReader(new InputStreamReader(sockets[i].getInputStream(),
                    StandardCharsets.US_ASCII));
                assertThat(in.readLine()).isEqualTo("c" + i);
            }
            for (final Socket socket : sockets)
            {
                socket.close();
            }
        }
        Await.until("every connection closed", () -> handler.events.stream()
            .filter(e -> e.equals("closed:PEER_CLOSED")).count() == 1_000);
    }

    @Test
    void aUdpEndpointEchoes() throws Exception
    {
        final Reactor reactor = nativeReactor("native-udp");
        final UdpEndpoint echo = new UdpEndpoint(reactor, 0, new UdpConfig().bindAddress("127.0.0.1"),
            (endpoint, payload, sender) -> endpoint.send(payload, sender)).open();
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            socket.setSoTimeout(30_000);
            final byte[] ping = "ping".getBytes(StandardCharsets.US_ASCII);
            socket.send(new DatagramPacket(ping, ping.length, InetAddress.getLoopbackAddress(), echo.port()));
            final DatagramPacket back = new DatagramPacket(new byte[16], 16);
            socket.receive(back);
            assertThat(new String(back.getData(), 0, back.getLength(), StandardCharsets.US_ASCII)).isEqualTo("ping");
        }
        finally
        {
            echo.close();
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
    void echoRoundTripsAllocateNothingOnTheReactorThreads() throws Exception
    {
        final int size = 256;
        final Reactor serverReactor = reactors.start(new ReactorConfig().name("native-server")
            .idleStrategy(new BusySpinIdleStrategy()).selectorProvider(provider()));
        final Reactor clientReactor = reactors.start(new ReactorConfig().name("native-client")
            .idleStrategy(new BusySpinIdleStrategy()).selectorProvider(provider()));
        final TcpConfig config = new TcpConfig().bindAddress("127.0.0.1").framing(() -> new FixedSizeFraming(size));
        final TcpServer server = new TcpServer(serverReactor, 0, config, new RecordingHandler(true)
        {
            @Override
            public void message(final io.celer.tcp.Connection connection, final java.nio.ByteBuffer message)
            {
                connection.send(message);
            }
        }).open();
        final PingClient ping = new PingClient(size);
        new TcpClient(clientReactor, "127.0.0.1", server.port(), config, ping).open();

        final List<Long> windows = SteadyAllocation.perWindow(List.of(serverReactor.thread(), clientReactor.thread()),
            () -> ping.awaitMore(10_000, Duration.ofMinutes(2)));

        assertThat(ping.failure()).isNull();
        assertThat(windows).as("bytes allocated by the two reactor threads per window").endsWith(0L);
    }
}
