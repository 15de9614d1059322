package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.nio.channels.spi.SelectorProvider;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.test.MulticastLoopback;

/**
 * UDP on the epoll provider, IPv4 and IPv6, against the JDK's own channels: datagrams both ways from direct and
 * heap buffers with their senders' addresses, an IPv6 socket taking IPv4 too, a connected channel told of a
 * refused datagram, multicast groups joined and left, and a ping-pong that allocates nothing per datagram, sender
 * addresses included.
 */
@Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class EpollDatagramChannelTest
{
    private static final InetAddress LOOPBACK4 = InetAddress.getLoopbackAddress();
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private static DatagramChannel open(final SelectorProvider provider, final StandardProtocolFamily family,
        final InetAddress host) throws IOException
    {
        final DatagramChannel channel = provider.openDatagramChannel(family);
        channel.configureBlocking(false);
        channel.bind(new InetSocketAddress(host, 0));
        return channel;
    }

    /** Receives one datagram, spinning a bounded while on the non-blocking channel. */
    private static SocketAddress receive(final DatagramChannel channel, final ByteBuffer into) throws IOException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        SocketAddress sender;
        while ((sender = channel.receive(into)) == null)
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no datagram within 10 s");
            }
            Thread.onSpinWait();
        }
        return sender;
    }

    private static ByteBuffer text(final String text, final boolean direct)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(bytes.length) : ByteBuffer.allocate(bytes.length);
        return buffer.put(bytes).flip();
    }

    private static String text(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.flip().remaining()];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static InetAddress ipv6Loopback()
    {
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET6))
        {
            final InetAddress loopback = InetAddress.getByName("::1");
            probe.bind(new InetSocketAddress(loopback, 0));
            return loopback;
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return null;
        }
    }

    @Test
    void ipv4DatagramsGoBothWaysWithTheirSenders() throws Exception
    {
        try (DatagramChannel epoll = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET, LOOPBACK4);
             DatagramChannel jdk = open(SelectorProvider.provider(), StandardProtocolFamily.INET, LOOPBACK4))
        {
            final InetSocketAddress epollAddress = (InetSocketAddress)epoll.getLocalAddress();
            assertThat(epollAddress.getPort()).isPositive();
            for (final boolean direct : new boolean[] {true, false})
            {
                assertThat(jdk.send(text("to epoll", direct), epollAddress)).isEqualTo(8);
                final ByteBuffer in = direct ? ByteBuffer.allocateDirect(64) : ByteBuffer.allocate(64);
                assertThat(receive(epoll, in)).isEqualTo(jdk.getLocalAddress());
                assertThat(text(in)).isEqualTo("to epoll");

                assertThat(epoll.send(text("to the jdk", direct), jdk.getLocalAddress())).isEqualTo(10);
                final ByteBuffer back = ByteBuffer.allocate(64);
                assertThat(receive(jdk, back)).isEqualTo(epollAddress);
                assertThat(text(back)).isEqualTo("to the jdk");
            }
            assertThat(epoll.receive(ByteBuffer.allocate(8))).as("nothing more").isNull();
        }
    }

    @Test
    void ipv6DatagramsGoBothWaysAndAnIpv6SocketTakesIpv4Too() throws Exception
    {
        final InetAddress loopback6 = ipv6Loopback();
        assumeTrue(loopback6 != null, "no IPv6 loopback here");
        try (DatagramChannel epoll = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET6,
                InetAddress.getByName("::"));
             DatagramChannel jdk6 = open(SelectorProvider.provider(), StandardProtocolFamily.INET6, loopback6);
             DatagramChannel jdk4 = open(SelectorProvider.provider(), StandardProtocolFamily.INET, LOOPBACK4))
        {
            final int port = ((InetSocketAddress)epoll.getLocalAddress()).getPort();
            jdk6.send(text("six", true), new InetSocketAddress(loopback6, port));
            final ByteBuffer in = ByteBuffer.allocateDirect(64);
            final InetSocketAddress sender6 = (InetSocketAddress)receive(epoll, in);
            assertThat(sender6).isEqualTo(jdk6.getLocalAddress());
            assertThat(text(in)).isEqualTo("six");

            jdk4.send(text("four", true), new InetSocketAddress(LOOPBACK4, port));
            in.clear();
            final InetSocketAddress sender4 = (InetSocketAddress)receive(epoll, in);
            assertThat(sender4.getAddress()).as("an IPv4-mapped sender comes back as IPv4")
                .isInstanceOf(Inet4Address.class);
            assertThat(sender4).isEqualTo(jdk4.getLocalAddress());
            assertThat(text(in)).isEqualTo("four");

            epoll.send(text("back to six", false), sender6);
            epoll.send(text("back to four", false), sender4);
            final ByteBuffer back = ByteBuffer.allocate(64);
            receive(jdk6, back);
            assertThat(text(back)).isEqualTo("back to six");
            back.clear();
            assertThat(receive(jdk4, back)).isEqualTo(new InetSocketAddress(LOOPBACK4, port));
            assertThat(text(back)).isEqualTo("back to four");
        }
    }

    @Test
    void aConnectedChannelTalksToItsPeerAndHearsOfARefusedDatagram() throws Exception
    {
        try (DatagramChannel epoll = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET, LOOPBACK4);
             DatagramChannel peer = open(SelectorProvider.provider(), StandardProtocolFamily.INET, LOOPBACK4))
        {
            epoll.connect(peer.getLocalAddress());
            assertThat(epoll.isConnected()).isTrue();
            assertThat(epoll.getRemoteAddress()).isEqualTo(peer.getLocalAddress());
            assertThat(epoll.write(text("hello", true))).isEqualTo(5);
            final ByteBuffer in = ByteBuffer.allocate(64);
            receive(peer, in);
            assertThat(text(in)).isEqualTo("hello");
            peer.send(text("hi", false), epoll.getLocalAddress());
            final ByteBuffer reply = ByteBuffer.allocateDirect(64);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (epoll.read(reply) == 0 && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            assertThat(text(reply)).isEqualTo("hi");

            peer.close();
            epoll.write(text("anyone?", true));
            assertThatThrownBy(() ->
            {
                while (System.nanoTime() < deadline)
                {
                    epoll.read(ByteBuffer.allocate(8));
                }
            }).isInstanceOf(PortUnreachableException.class);

            epoll.disconnect();
            assertThat(epoll.isConnected()).isFalse();
        }
    }

    @Test
    void optionsAreSetAndSourceSpecificMulticastIsRefusedClearly() throws Exception
    {
        try (DatagramChannel epoll = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET, LOOPBACK4))
        {
            epoll.setOption(StandardSocketOptions.SO_RCVBUF, 256 * 1024);
            assertThat(epoll.getOption(StandardSocketOptions.SO_RCVBUF)).isGreaterThanOrEqualTo(128 * 1024);
            epoll.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, false);
            assertThat(epoll.getOption(StandardSocketOptions.IP_MULTICAST_LOOP)).isFalse();
            epoll.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 3);
            assertThat(epoll.getOption(StandardSocketOptions.IP_MULTICAST_TTL)).isEqualTo(3);
            assertThatThrownBy(() -> epoll.join(InetAddress.getByName("239.1.2.3"),
                NetworkInterface.getByInetAddress(LOOPBACK4), LOOPBACK4))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("source-specific");
            assertThatThrownBy(() -> epoll.setOption(StandardSocketOptions.IP_MULTICAST_IF, null))
                .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(EpollSelectorProvider.INSTANCE.openDatagramChannel()).isNotNull().satisfies(DatagramChannel::close);
    }

    @Test
    void aJoinedGroupsDatagramsArriveUntilTheMembershipIsDropped() throws Exception
    {
        final NetworkInterface lo = MulticastLoopback.get();
        final InetAddress group = InetAddress.getByName("239.255.42.17");
        try (DatagramChannel receiver = EpollSelectorProvider.INSTANCE.openDatagramChannel(StandardProtocolFamily.INET);
             DatagramChannel bystander =
                 EpollSelectorProvider.INSTANCE.openDatagramChannel(StandardProtocolFamily.INET);
             DatagramChannel sender = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET, LOOPBACK4))
        {
            receiver.configureBlocking(false);
            receiver.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            receiver.bind(new InetSocketAddress(0));
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, lo);
            assertThat(sender.getOption(StandardSocketOptions.IP_MULTICAST_IF)).isEqualTo(lo);
            sender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 0);
            final InetSocketAddress target = new InetSocketAddress(group, ((InetSocketAddress)receiver.getLocalAddress())
                .getPort());
            bystander.configureBlocking(false);
            bystander.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            bystander.bind(new InetSocketAddress(target.getPort()));

            final MembershipKey key = receiver.join(group, lo);
            assertThat(receiver.join(group, lo)).as("joined once").isSameAs(key);
            assertThat(key.group()).isEqualTo(group);
            assertThat(key.networkInterface()).isEqualTo(lo);
            assertThat(key.channel()).isSameAs(receiver);
            sender.send(ByteBuffer.wrap("one".getBytes(StandardCharsets.US_ASCII)), target);
            assertThat(receiveWithin(receiver, 10_000)).isEqualTo("one");
            // Linux's default would hand it every group joined on the host: only the ones it joined, as the JDK's.
            assertThat(receiveWithin(bystander, 300)).as("on the port, not joined").isNull();

            key.drop();
            assertThat(key.isValid()).isFalse();
            sender.send(ByteBuffer.wrap("two".getBytes(StandardCharsets.US_ASCII)), target);
            assertThat(receiveWithin(receiver, 300)).as("after leaving").isNull();

            final MembershipKey again = receiver.join(group, lo);
            assertThat(again).isNotSameAs(key);
            receiver.close();
            assertThat(again.isValid()).as("closing leaves").isFalse();
        }
        try (DatagramChannel channel = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET, LOOPBACK4))
        {
            assertThatThrownBy(() -> channel.join(LOOPBACK4, lo)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a multicast address");
            assertThatThrownBy(() -> channel.join(InetAddress.getByName("ff02::1"), lo))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("IPv4 channel");
        }
    }

    /** The next datagram as text, or null if none comes within the time. */
    private static String receiveWithin(final DatagramChannel channel, final long millis) throws Exception
    {
        final ByteBuffer in = ByteBuffer.allocateDirect(64);
        final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline)
        {
            if (channel.receive(in) != null)
            {
                in.flip();
                return StandardCharsets.US_ASCII.decode(in).toString();
            }
            Thread.sleep(1);
        }
        return null;
    }

    @Test
    void aPingPongAllocatesNothingPerDatagramSendersIncluded() throws Exception
    {
        try (DatagramChannel a = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET, LOOPBACK4);
             DatagramChannel b = open(EpollSelectorProvider.INSTANCE, StandardProtocolFamily.INET, LOOPBACK4))
        {
            final ByteBuffer out = ByteBuffer.allocateDirect(64);
            final ByteBuffer in = ByteBuffer.allocateDirect(64);
            final SocketAddress toB = b.getLocalAddress();
            long least = Long.MAX_VALUE;
            for (int round = 0; round < 8 && least > 0; round++)
            {
                final long before = THREADS.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 20_000; i++)
                {
                    out.clear().putLong(0, i);
                    a.send(out, toB);
                    in.clear();
                    final SocketAddress fromA = receive(b, in);
                    out.clear().putLong(0, in.getLong(0));
                    b.send(out, fromA);
                    in.clear();
                    receive(a, in);
                    if (in.getLong(0) != i)
                    {
                        throw new AssertionError("datagram " + i + " came back as " + in.getLong(0));
                    }
                }
                least = Math.min(least, THREADS.getCurrentThreadAllocatedBytes() - before);
            }
            assertThat(least).as("the least bytes a round of 20,000 round trips allocated").isZero();
        }
    }
}
