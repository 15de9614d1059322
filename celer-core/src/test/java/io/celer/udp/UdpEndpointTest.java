package io.celer.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.ReactorGroup;
import io.celer.test.Await;
import io.celer.test.Reactors;

class UdpEndpointTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Records datagrams as "sender-port:text" and errors; optionally echoes.
     */
    static final class Recorder implements DatagramHandler
    {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final boolean echo;

        Recorder(final boolean echo)
        {
            this.echo = echo;
        }

        @Override
        public void datagram(final UdpEndpoint endpoint, final ByteBuffer payload, final InetSocketAddress sender)
        {
            final int start = payload.position();
            final byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            final String text = new String(bytes, StandardCharsets.ISO_8859_1);
            if (text.equals("throw"))
            {
                throw new IllegalStateException("handler failure, expected by the test");
            }
            received.add(sender.getPort() + ":" + text);
            if (echo)
            {
                payload.position(start);
                endpoint.send(payload, sender);
            }
        }

        @Override
        public void error(final UdpEndpoint endpoint, final Throwable error)
        {
            errors.add(error);
        }

        String next() throws InterruptedException
        {
            final String value = received.poll(10, TimeUnit.SECONDS);
            assertThat(value).as("a datagram within 10 s").isNotNull();
            return value;
        }
    }

    private UdpEndpoint endpoint(final Reactor reactor, final UdpConfig config, final DatagramHandler handler)
    {
        return new UdpEndpoint(reactor, 0, config.bindAddress("127.0.0.1"), handler).open();
    }

    @Test
    void withReusePortAnEndpointPerReactorSharesThePortAndTheSenders() throws Exception
    {
        final ReactorGroup group = reactors.startGroup("udp", 2);
        final Recorder first = new Recorder(false);
        final Recorder second = new Recorder(false);
        final UdpEndpoint one = endpoint(group.reactor(0), new UdpConfig().reusePort(true), first);
        final UdpEndpoint two = new UdpEndpoint(group.reactor(1), one.port(),
            new UdpConfig().bindAddress("127.0.0.1").reusePort(true), second).open();
        assertThat(two.port()).isEqualTo(one.port());
        final int senders = 32;
        for (int i = 0; i < senders; i++)
        {
            try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
            {
                final byte[] hello = ("hello " + i).getBytes(StandardCharsets.US_ASCII);
                peer.send(new DatagramPacket(hello, hello.length, InetAddress.getLoopbackAddress(), one.port()));
            }
        }
        Await.until("every datagram received", () -> first.received.size() + second.received.size() == senders);
        // The kernel hashes each sender's port: 32 senders all on one socket would be a chance of 2^-31.
        assertThat(first.received).isNotEmpty();
        assertThat(second.received).isNotEmpty();
    }

    @Test
    void echoesDatagramsBackToTheirSender() throws Exception
    {
        final Reactor reactor = reactors.start("udp");
        final Recorder server = new Recorder(true);
        final UdpEndpoint echo = endpoint(reactor, new UdpConfig(), server);
        try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            peer.setSoTimeout(10_000);
            final byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
            peer.send(new DatagramPacket(hello, hello.length, InetAddress.getLoopbackAddress(), echo.port()));
            final DatagramPacket reply = new DatagramPacket(new byte[64], 64);
            peer.receive(reply);
            assertThat(new String(reply.getData(), 0, reply.getLength(), StandardCharsets.US_ASCII)).isEqualTo("hello");
            assertThat(server.next()).isEqualTo(peer.getLocalPort() + ":hello");
        }
    }

    @Test
    void aBusyPolledEndpointEchoesWithoutTheSelectorAndStopsBeingPolledWhenClosed() throws Exception
    {
        // Once the endpoint is polled the selector runs once in a billion cycles: polling does all the reading.
        final Reactor reactor = reactors.start(new ReactorConfig().name("udp").selectInterval(1 << 30));
        final Recorder server = new Recorder(true);
        final UdpEndpoint echo = endpoint(reactor, new UdpConfig().busyPoll(true), server);
        try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            peer.setSoTimeout(10_000);
            for (int i = 0; i < 100; i++)
            {
                final byte[] ping = ("ping " + i).getBytes(StandardCharsets.US_ASCII);
                peer.send(new DatagramPacket(ping, ping.length, InetAddress.getLoopbackAddress(), echo.port()));
                final DatagramPacket reply = new DatagramPacket(new byte[64], 64);
                peer.receive(reply);
                assertThat(new String(reply.getData(), 0, reply.getLength(), StandardCharsets.US_ASCII))
                    .isEqualTo("ping " + i);
            }
        }
        assertThat(pollers(reactor)).isEqualTo(1);
        echo.close();
        Await.until("the closed endpoint is no longer polled", () -> pollers(reactor) == 0);
        assertThat(server.errors).isEmpty();
    }

    private static int pollers(final Reactor reactor)
    {
        final AtomicInteger count = new AtomicInteger();
        reactor.call(() -> count.set(reactor.internals().pollerCount()));
        return count.get();
    }

    @Test
    void anOversizedDatagramIsReportedAndTheEndpointKeepsWorking() throws Exception
    {
        final Recorder recorder = new Recorder(false);
        final UdpEndpoint endpoint = endpoint(reactors.start("udp"), new UdpConfig().maxDatagramSize(100), recorder);
        try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            final InetAddress loopback = InetAddress.getLoopbackAddress();
            peer.send(new DatagramPacket(new byte[101], 101, loopback, endpoint.port()));
            final byte[] ok = "x".repeat(100).getBytes(StandardCharsets.US_ASCII);
            peer.send(new DatagramPacket(ok, ok.length, loopback, endpoint.port()));
            assertThat(recorder.next()).isEqualTo(peer.getLocalPort() + ":" + "x".repeat(100));
            assertThat(recorder.errors).singleElement()
                .isInstanceOf(OversizedDatagramException.class)
                .extracting(Throwable::getMessage).asString()
                .contains("larger than the 100 bytes this endpoint takes");
        }
    }

    @Test
    void aThrowingHandlerIsReportedAndTheNextDatagramStillArrives() throws Exception
    {
        final Recorder recorder = new Recorder(false);
        final Reactor reactor = reactors.start("udp");
        final UdpEndpoint receiver = endpoint(reactor, new UdpConfig(), recorder);
        final UdpEndpoint sender = endpoint(reactor, new UdpConfig(), new Recorder(false));
        final InetSocketAddress target = new InetSocketAddress("127.0.0.1", receiver.port());
        reactor.call(() ->
        {
            sender.send("throw", target);
            sender.send("after", target);
        });
        assertThat(recorder.next()).isEqualTo(sender.port() + ":after");
        assertThat(recorder.errors).singleElement().isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aConnectedEndpointTalksToItsPeerOnly() throws Exception
    {
        final Reactor reactor = reactors.start("udp");
        final Recorder recorder = new Recorder(false);
        final UdpEndpoint connected = endpoint(reactor, new UdpConfig(), recorder);
        try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress());
            DatagramSocket stranger = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            peer.setSoTimeout(10_000);
            reactor.call(() ->
            {
                connected.connect(new InetSocketAddress("127.0.0.1", peer.getLocalPort()));
                connected.send(ByteBuffer.wrap("to peer".getBytes(StandardCharsets.US_ASCII)));
            });
            final DatagramPacket packet = new DatagramPacket(new byte[64], 64);
            peer.receive(packet);
            assertThat(new String(packet.getData(), 0, packet.getLength(), StandardCharsets.US_ASCII))
                .isEqualTo("to peer");

            final InetAddress loopback = InetAddress.getLoopbackAddress();
            stranger.send(new DatagramPacket(new byte[] {'s'}, 1, loopback, connected.port()));
            peer.send(new DatagramPacket(new byte[] {'p'}, 1, loopback, connected.port()));
            assertThat(recorder.next()).isEqualTo(peer.getLocalPort() + ":p");
            assertThat(recorder.received.poll(100, TimeUnit.MILLISECONDS)).as("the stranger's datagram").isNull();
        }
    }

    @Test
    void sendingOnAClosedEndpointIsAClearError()
    {
        final UdpEndpoint endpoint = endpoint(reactors.start("udp"), new UdpConfig(), new Recorder(false));
        endpoint.close(); // from a foreign thread the close runs on the reactor, soon
        io.celer.test.Await.until("the endpoint to close", () -> !endpoint.isOpen());
        assertThatThrownBy(() -> endpoint.send(ByteBuffer.allocate(1), new InetSocketAddress("127.0.0.1", 9)))
            .isInstanceOf(IllegalStateException.class).hasMessage("UDP endpoint is not open");
    }

    @Test
    void theClosedEndpointsPortIsFreeBeforeTheReactorSelectsAgain()
    {
        final Reactor reactor = reactors.start("udp");
        final UdpEndpoint endpoint = endpoint(reactor, new UdpConfig(), new Recorder(false));
        final int port = endpoint.port();
        final java.util.concurrent.atomic.AtomicReference<String> bind = new java.util.concurrent.atomic.AtomicReference<>();
        // The close and the check queue one after the other and run in the same pass, before any select.
        reactor.call(() ->
        {
            endpoint.close();
            reactor.execute(() -> bind.set(tryBind(port)));
        });
        Await.until("the check ran", () -> bind.get() != null);
        assertThat(bind.get()).isEqualTo("bound");
    }

    private static String tryBind(final int port)
    {
        try (DatagramSocket again = new DatagramSocket(new InetSocketAddress("127.0.0.1", port)))
        {
            return "bound";
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }
}
