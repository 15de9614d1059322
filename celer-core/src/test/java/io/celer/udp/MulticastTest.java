package io.celer.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.test.MulticastLoopback;
import io.celer.test.Reactors;

/**
 * Multicast on the loopback interface, so no datagram ever leaves the machine.
 */
class MulticastTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void joinedReceiversGetTheGroupsDatagramsAndStopAfterLeaving() throws Exception
    {
        final NetworkInterface lo = MulticastLoopback.get();
        final InetAddress group = InetAddress.getByName("239.255.42.99");
        final Reactor reactor = reactors.start("multicast");

        final UdpEndpointTest.Recorder first = new UdpEndpointTest.Recorder(false);
        final UdpEndpointTest.Recorder second = new UdpEndpointTest.Recorder(false);
        final UdpConfig receiverConfig = new UdpConfig().reuseAddress(true).multicastInterface(lo);
        final UdpEndpoint a = new UdpEndpoint(reactor, 0, receiverConfig, first).open();
        final UdpEndpoint b = new UdpEndpoint(reactor, a.port(), receiverConfig, second).open();
        final UdpEndpoint sender = new UdpEndpoint(reactor, 0,
            new UdpConfig().bindAddress("127.0.0.1").multicastInterface(lo).multicastTtl(0), (e, p, s) -> { })
            .open();
        final InetSocketAddress target = new InetSocketAddress(group, a.port());

        reactor.call(() ->
        {
            a.join(group);
            b.join(group);
            sender.send("quote-1", target);
        });
        assertThat(first.next()).endsWith(":quote-1");
        assertThat(second.next()).endsWith(":quote-1");

        reactor.call(() ->
        {
            assertThat(b.leave(group)).isTrue();
            sender.send("quote-2", target);
        });
        assertThat(first.next()).endsWith(":quote-2");
        assertThat(second.received.poll(200, TimeUnit.MILLISECONDS)).as("after leaving").isNull();
    }

    @Test
    void joiningWithoutAnInterfaceSaysWhatIsMissing() throws Exception
    {
        final UdpEndpoint endpoint = new UdpEndpoint(reactors.start("multicast"), 0,
            new UdpConfig().bindAddress("127.0.0.1"), (e, p, s) -> { }).open();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> endpoint.join(InetAddress.getByName("239.1.1.1")))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("multicastInterface");
    }
}
