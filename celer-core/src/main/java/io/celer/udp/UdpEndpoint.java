package io.celer.udp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;

import io.celer.reactor.internal.BoundSocket;
import io.celer.reactor.internal.Poller;
import io.celer.reactor.Reactor;
import io.celer.reactor.internal.Selectable;
import io.celer.reactor.internal.Logs;

/**
 * A UDP socket on a reactor: receives from anyone (or its connected peer), sends to any address, joins
 * multicast groups. IPv4.
 *
 * <p>Receiving allocates nothing in steady state: one direct buffer is reused, and the JDK reuses the sender's
 * address object while the sender stays the same. Methods other than {@link #open()}, {@link #port()} and
 * {@link #close()} are for the reactor thread (or before the reactor starts).
 */
public final class UdpEndpoint
{
    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());
    private static final int DATAGRAMS_PER_CYCLE = 64;

    private final Plumbing plumbing = new Plumbing();
    private final Reactor reactor;
    private final int port;
    private final UdpConfig config;
    private final DatagramHandler handler;
    private final ByteBuffer readBuffer;
    private final ByteBuffer writeBuffer;
    private final List<MembershipKey> memberships = new ArrayList<>();
    private final BoundSocket socket;

    private volatile DatagramChannel channel;

    /**
     * An endpoint.
     *
     * @param reactor the reactor that runs it.
     * @param port    the local port, 0 for an ephemeral one.
     * @param config  its settings.
     * @param handler the application.
     */
    public UdpEndpoint(final Reactor reactor, final int port, final UdpConfig config, final DatagramHandler handler)
    {
        this.reactor = reactor;
        this.port = BoundSocket.checkPort(port);
        this.config = config;
        this.handler = handler;
        // One byte more than the largest datagram taken: a full buffer means the kernel truncated a larger one.
        this.readBuffer = ByteBuffer.allocateDirect(config.maxDatagramSize() + 1);
        this.writeBuffer = ByteBuffer.allocateDirect(config.writeBufferSize());
        this.socket = new BoundSocket(reactor);
    }

    /**
     * Binds now, from any thread, and starts receiving on the reactor.
     *
     * @return this.
     * @throws UncheckedIOException if the socket cannot be bound.
     */
    public UdpEndpoint open()
    {
        if (channel != null)
        {
            throw new IllegalStateException("UDP endpoint on port " + port + " is already open");
        }
        final DatagramChannel newChannel;
        try
        {
            newChannel = reactor.internals().selectorProvider().openDatagramChannel(StandardProtocolFamily.INET);
            newChannel.configureBlocking(false);
            newChannel.setOption(StandardSocketOptions.SO_REUSEADDR, config.reuseAddress());
            if (config.reusePort())
            {
                newChannel.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            if (config.socketReceiveBufferSize() > 0)
            {
                newChannel.setOption(StandardSocketOptions.SO_RCVBUF, config.socketReceiveBufferSize());
            }
            if (config.socketSendBufferSize() > 0)
            {
                newChannel.setOption(StandardSocketOptions.SO_SNDBUF, config.socketSendBufferSize());
            }
            if (config.multicastInterface() != null)
            {
                newChannel.setOption(StandardSocketOptions.IP_MULTICAST_IF, config.multicastInterface());
            }
            newChannel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, config.multicastTtl());
            newChannel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, config.multicastLoopback());
            newChannel.bind(new InetSocketAddress(config.bindAddress(), port));
            socket.bound(newChannel);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot bind UDP " + config.bindAddress() + ":" + port, ex);
        }
        channel = newChannel;
        reactor.execute(this::register);
        return this;
    }

    private void register()
    {
        if (!socket.register(channel, SelectionKey.OP_READ, plumbing))
        {
            close();
        }
        else if (config.busyPoll())
        {
            reactor.internals().addPoller(plumbing);
        }
    }

    /**
     * The local port, known once open.
     *
     * @return the port, or -1 before open.
     */
    public int port()
    {
        return socket.port();
    }

    /**
     * Whether the endpoint is open.
     *
     * @return true between open and close.
     */
    public boolean isOpen()
    {
        return channel != null;
    }

    /**
     * Talks to one peer only: {@link #send(ByteBuffer)} goes there, and datagrams from others are dropped by
     * the kernel.
     *
     * @param remote the peer.
     * @throws UncheckedIOException if the address is unusable.
     */
    public void connect(final InetSocketAddress remote)
    {
        try
        {
            openChannel().connect(remote);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot connect UDP to " + remote, ex);
        }
    }

    /**
     * Sends a datagram to an address: the bytes between position and limit, after which position is at limit.
     *
     * @param payload the datagram.
     * @param target  where to.
     * @return false, with the payload untouched, when the socket buffer has no room for it now.
     * @throws UncheckedIOException on an I/O error.
     */
    public boolean send(final ByteBuffer payload, final InetSocketAddress target)
    {
        try
        {
            return openChannel().send(payload, target) > 0 || !payload.hasRemaining();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot send to " + target, ex);
        }
    }

    /**
     * Sends a datagram to the connected peer.
     *
     * @param payload the datagram.
     * @return false, with the payload untouched, when the socket buffer has no room for it now.
     * @throws UncheckedIOException on an I/O error, a peer's port unreachable among them.
     */
    public boolean send(final ByteBuffer payload)
    {
        try
        {
            return openChannel().write(payload) > 0 || !payload.hasRemaining();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot send to the connected peer", ex);
        }
    }

    /**
     * Sends part of an array as a datagram, through the endpoint's write buffer.
     *
     * @param payload the array.
     * @param offset  first byte.
     * @param length  bytes.
     * @param target  where to.
     * @return false when the socket buffer has no room for it now.
     */
    public boolean send(final byte[] payload, final int offset, final int length, final InetSocketAddress target)
    {
        writeBuffer.clear();
        writeBuffer.put(payload, offset, length).flip();
        return send(writeBuffer, target);
    }

    /**
     * Sends text as a datagram, one byte per char (ASCII; chars above 255 become {@code ?}).
     *
     * @param text   the text.
     * @param target where to.
     * @return false when the socket buffer has no room for it now.
     */
    public boolean send(final CharSequence text, final InetSocketAddress target)
    {
        writeBuffer.clear();
        final int length = text.length();
        if (length > writeBuffer.capacity())
        {
            throw new IllegalArgumentException("text of " + length + " chars exceeds the write buffer of " +
                writeBuffer.capacity() + " bytes");
        }
        for (int i = 0; i < length; i++)
        {
            final char c = text.charAt(i);
            writeBuffer.put(c < 256 ? (byte)c : (byte)'?');
        }
        writeBuffer.flip();
        return send(writeBuffer, target);
    }

    /**
     * Joins a multicast group on the configured interface.
     *
     * @param group a multicast address.
     * @throws IllegalStateException if no multicast interface is configured.
     * @throws UncheckedIOException if the kernel refuses.
     */
    public void join(final InetAddress group)
    {
        if (config.multicastInterface() == null)
        {
            throw new IllegalStateException("set UdpConfig.multicastInterface to join " + group);
        }
        join(group, config.multicastInterface());
    }

    /**
     * Joins a multicast group on an interface.
     *
     * @param group            a multicast address.
     * @param networkInterface where to listen.
     * @throws UncheckedIOException if the kernel refuses.
     */
    public void join(final InetAddress group, final NetworkInterface networkInterface)
    {
        try
        {
            memberships.add(openChannel().join(group, networkInterface));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot join " + group + " on " + networkInterface.getName(), ex);
        }
    }

    /**
     * Leaves a multicast group on every interface it was joined on.
     *
     * @param group the group.
     * @return true if it was joined.
     */
    public boolean leave(final InetAddress group)
    {
        boolean left = false;
        for (int i = memberships.size() - 1; i >= 0; i--)
        {
            final MembershipKey membership = memberships.get(i);
            if (membership.group().equals(group))
            {
                membership.drop();
                memberships.remove(i);
                left = true;
            }
        }
        return left;
    }

    /**
     * Closes the socket, from any thread; once closed on the reactor thread its port is free to bind again.
     */
    public void close()
    {
        reactor.execute(this::closeAndRelease);
    }

    private void closeAndRelease()
    {
        closeNow();
        socket.release(plumbing);
    }

    /**
     * Delivers up to a cycle's worth of datagrams.
     *
     * @return how many were received.
     */
    private int receive()
    {
        final DatagramChannel current = channel;
        int received = 0;
        for (int i = 0; i < DATAGRAMS_PER_CYCLE && current != null && current.isOpen(); i++)
        {
            readBuffer.clear();
            final SocketAddress sender;
            try
            {
                sender = current.receive(readBuffer);
            }
            catch (final IOException ex)
            {
                // An ICMP error for an earlier send to a connected peer, say: the socket still works.
                report(ex);
                return received + 1;
            }
            if (sender == null)
            {
                return received;
            }
            received++;
            readBuffer.flip();
            if (readBuffer.limit() > config.maxDatagramSize())
            {
                report(new OversizedDatagramException((InetSocketAddress)sender, config.maxDatagramSize()));
                continue;
            }
            try
            {
                handler.datagram(this, readBuffer, (InetSocketAddress)sender);
            }
            catch (final Throwable t)
            {
                report(t);
            }
        }
        return received;
    }

    private void report(final Throwable error)
    {
        try
        {
            handler.error(this, error);
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "error callback of " + this + " threw", t);
        }
    }

    private void closeNow()
    {
        final DatagramChannel current = channel;
        if (current == null)
        {
            return;
        }
        channel = null;
        if (config.busyPoll())
        {
            reactor.internals().removePoller(plumbing);
        }
        memberships.clear();
        socket.close(current);
    }

    private DatagramChannel openChannel()
    {
        final DatagramChannel current = channel;
        if (current == null)
        {
            throw new IllegalStateException("UDP endpoint is not open");
        }
        return current;
    }

    @Override
    public String toString()
    {
        return "UdpEndpoint[" + socket.localAddress() + "]";
    }

    /** The endpoint's side of the selector and the busy pollers, kept off its public face. */
    private final class Plumbing implements Selectable, Poller
    {
        @Override
        public void onSelect(final SelectionKey selectedKey)
        {
            receive();
        }

        @Override
        public int poll()
        {
            return receive();
        }

        @Override
        public void onReactorStop()
        {
            closeNow();
        }
    }
}
