package io.celer.linux.nio;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.celer.linux.Errno;
import io.celer.linux.Net;

/**
 * A UDP socket over a native descriptor, IPv4 or IPv6, non-blocking only: a datagram is one {@code recvfrom} or
 * {@code sendto} straight from a direct buffer's memory. Garbage-free per datagram as the JDK's channel is: the
 * sender of the last datagram received is given again while the next comes from the same address, and the
 * address of the last target is written to native memory once while it does not change. For one thread at a time,
 * as a reactor uses it, where the JDK's channel locks. Multicast groups are joined for any source; not here yet:
 * source-specific joins and blocking, scattering reads and gathering writes of several buffers, and a
 * {@link DatagramSocket} view.
 */
final class EpollDatagramChannel extends DatagramChannel implements EpollChannel
{
    private static final Set<SocketOption<?>> OPTIONS = Set.of(StandardSocketOptions.SO_SNDBUF,
        StandardSocketOptions.SO_RCVBUF, StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT,
        StandardSocketOptions.SO_BROADCAST, StandardSocketOptions.IP_TOS, StandardSocketOptions.IP_MULTICAST_TTL,
        StandardSocketOptions.IP_MULTICAST_LOOP, StandardSocketOptions.IP_MULTICAST_IF);

    private final NativeSocket socket;
    /** The last target's {@code sockaddr}, then the last sender's as received, then that sender's as given. */
    private final MemorySegment target;
    private final MemorySegment sender;
    private final MemorySegment lastSender;
    private final MemorySegment senderLength;
    private InetSocketAddress lastTarget;
    private int targetLength;
    private InetSocketAddress lastSenderAddress;
    private int lastSenderLength;
    private InetSocketAddress remote;
    /** Whether the socket has a local address: bound, connected or sent from. */
    private boolean bound;
    private NetworkInterface multicastInterface;
    private final List<EpollMembership> memberships = new ArrayList<>();

    EpollDatagramChannel(final SelectorProvider provider, final int family) throws IOException
    {
        super(provider);
        this.socket = NativeSocket.open(family, Net.SOCK_DGRAM);
        final MemorySegment memory = Arena.ofAuto().allocate(3 * 32 + 8, 8);
        this.target = memory.asSlice(0, Net.SOCKADDR_IN6_SIZE);
        this.sender = memory.asSlice(32, Net.SOCKADDR_IN6_SIZE);
        this.lastSender = memory.asSlice(64, Net.SOCKADDR_IN6_SIZE);
        this.senderLength = memory.asSlice(96, 4);
        onlyGroupsJoinedHere();
    }

    /**
     * Linux hands a socket bound to a group's port the datagrams of every group joined by any socket on the host;
     * as the JDK's channels do, this one gets only those of the groups it joined. Kernels without the IPv6 option
     * (before 4.20) keep their default for IPv6 groups.
     */
    private void onlyGroupsJoinedHere() throws IOException
    {
        final ThreadCalls thread = ThreadCalls.current();
        final int ipv4 = thread.calls.setIntOption(socket.fd, Net.IPPROTO_IP, Net.IP_MULTICAST_ALL, thread.scratch, 0);
        if (ipv4 < 0)
        {
            socket.close();
            throw NativeSocket.failure("setsockopt IP_MULTICAST_ALL", ipv4);
        }
        if (socket.family == Net.AF_INET6)
        {
            thread.calls.setIntOption(socket.fd, Net.IPPROTO_IPV6, Net.IPV6_MULTICAST_ALL, thread.scratch, 0);
        }
    }

    @Override
    public NativeSocket nativeSocket()
    {
        return socket;
    }

    @Override
    public boolean listens()
    {
        return false;
    }

    @Override
    public DatagramChannel bind(final SocketAddress local) throws IOException
    {
        socket.bind(local);
        bound = true;
        return this;
    }

    @Override
    public <T> DatagramChannel setOption(final SocketOption<T> name, final T value) throws IOException
    {
        Objects.requireNonNull(name);
        if (!OPTIONS.contains(name))
        {
            throw new UnsupportedOperationException("'" + name + "' is not supported on Celer's epoll transport");
        }
        if (name == StandardSocketOptions.IP_MULTICAST_IF)
        {
            multicastInterface((NetworkInterface)value);
            return this;
        }
        socket.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(final SocketOption<T> name) throws IOException
    {
        if (!OPTIONS.contains(name))
        {
            throw new UnsupportedOperationException("'" + name + "' is not supported on Celer's epoll transport");
        }
        if (name == StandardSocketOptions.IP_MULTICAST_IF)
        {
            socket.ensureOpen();
            return name.type().cast(multicastInterface);
        }
        return socket.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions()
    {
        return OPTIONS;
    }

    @Override
    public DatagramSocket socket()
    {
        throw new UnsupportedOperationException("no java.net.DatagramSocket view on Celer's epoll transport");
    }

    @Override
    public boolean isConnected()
    {
        return remote != null;
    }

    @Override
    public DatagramChannel connect(final SocketAddress address) throws IOException
    {
        socket.ensureOpen();
        final InetSocketAddress peer = resolved(address);
        final ThreadCalls thread = ThreadCalls.current();
        final int length = NativeSocket.write(thread.address, socket.family, peer);
        final int result = thread.calls.connect(socket.fd, thread.address.address(), length);
        if (result < 0)
        {
            throw NativeSocket.failure("connect to " + peer, result);
        }
        remote = peer;
        bound = true;
        socket.localChanged();
        return this;
    }

    @Override
    public DatagramChannel disconnect() throws IOException
    {
        if (remote == null || !isOpen())
        {
            return this;
        }
        final ThreadCalls thread = ThreadCalls.current();
        // AF_UNSPEC (0) dissolves the association; the socket keeps its port.
        thread.address.fill((byte)0);
        final int result = thread.calls.connect(socket.fd, thread.address.address(), Net.SOCKADDR_IN6_SIZE);
        if (result < 0)
        {
            throw NativeSocket.failure("disconnect", result);
        }
        remote = null;
        socket.localChanged();
        return this;
    }

    @Override
    public SocketAddress getRemoteAddress() throws IOException
    {
        socket.ensureOpen();
        return remote;
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException
    {
        socket.ensureOpen();
        return bound ? socket.localAddress() : null;
    }

    @Override
    public SocketAddress receive(final ByteBuffer destination) throws IOException
    {
        socket.ensureOpen();
        senderLength.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN6_SIZE);
        final long received = ThreadCalls.current().receive(socket.fd, destination, sender.address(),
            senderLength.address());
        if (received < 0)
        {
            if (received == -Errno.EAGAIN || received == -Errno.EINTR)
            {
                return null;
            }
            throw failure("receive", received);
        }
        return sender();
    }

    /** The sender just received: the last one's address again while it is the same. */
    private InetSocketAddress sender()
    {
        final int length = senderLength.get(ValueLayout.JAVA_INT, 0);
        if (lastSenderAddress != null && length == lastSenderLength &&
            MemorySegment.mismatch(sender, 0, length, lastSender, 0, length) < 0)
        {
            return lastSenderAddress;
        }
        lastSenderAddress = NativeSocket.address(sender);
        lastSenderLength = length;
        MemorySegment.copy(sender, 0, lastSender, 0, length);
        return lastSenderAddress;
    }

    @Override
    public int send(final ByteBuffer source, final SocketAddress address) throws IOException
    {
        socket.ensureOpen();
        Objects.requireNonNull(address);
        if (remote != null)
        {
            if (!remote.equals(address))
            {
                throw new AlreadyConnectedException();
            }
            return write(source);
        }
        if (address != lastTarget && !address.equals(lastTarget))
        {
            final InetSocketAddress inet = resolved(address);
            targetLength = NativeSocket.write(target, socket.family, inet);
            lastTarget = inet;
        }
        final long sent = ThreadCalls.current().send(socket.fd, source, target.address(), targetLength);
        bound = true;
        return outcome(sent, address);
    }

    @Override
    public int read(final ByteBuffer destination) throws IOException
    {
        checkConnected();
        final long read = ThreadCalls.current().receive(socket.fd, destination, 0L, 0L);
        if (read >= 0)
        {
            return (int)read;
        }
        if (read == -Errno.EAGAIN || read == -Errno.EINTR)
        {
            return 0;
        }
        throw failure("read", read);
    }

    @Override
    public int write(final ByteBuffer source) throws IOException
    {
        checkConnected();
        return outcome(ThreadCalls.current().send(socket.fd, source, 0L, 0), null);
    }

    /** A send's outcome; the failure's message names the target, if any, only when there is one. */
    private static int outcome(final long sent, final SocketAddress address) throws IOException
    {
        if (sent >= 0)
        {
            return (int)sent;
        }
        if (sent == -Errno.EAGAIN || sent == -Errno.EINTR)
        {
            return 0;
        }
        throw failure(address == null ? "write" : "send to " + address, sent);
    }

    /** A failure; a refused datagram, reported by the kernel on a connected socket, as the JDK reports it. */
    private static IOException failure(final String call, final long errno)
    {
        return errno == -Errno.ECONNREFUSED ? new PortUnreachableException(call + ": ECONNREFUSED")
            : NativeSocket.failure(call, errno);
    }

    @Override
    public long read(final ByteBuffer[] destinations, final int offset, final int length) throws IOException
    {
        Objects.checkFromIndexSize(offset, length, destinations.length);
        if (length != 1)
        {
            throw new UnsupportedOperationException("a datagram into several buffers is not on Celer's epoll " +
                "transport yet");
        }
        return read(destinations[offset]);
    }

    @Override
    public long write(final ByteBuffer[] sources, final int offset, final int length) throws IOException
    {
        Objects.checkFromIndexSize(offset, length, sources.length);
        if (length != 1)
        {
            throw new UnsupportedOperationException("a datagram from several buffers is not on Celer's epoll " +
                "transport yet");
        }
        return write(sources[offset]);
    }

    @Override
    public MembershipKey join(final InetAddress group, final NetworkInterface networkInterface) throws IOException
    {
        Objects.requireNonNull(networkInterface, "networkInterface");
        socket.ensureOpen();
        if (!group.isMulticastAddress())
        {
            throw new IllegalArgumentException(group + " is not a multicast address");
        }
        if (group instanceof Inet6Address && socket.family == Net.AF_INET)
        {
            throw new IllegalArgumentException("an IPv4 channel cannot join the IPv6 group " + group);
        }
        for (final EpollMembership joined : memberships)
        {
            if (joined.group().equals(group) && joined.networkInterface().equals(networkInterface))
            {
                return joined;
            }
        }
        final int result = membership(true, group, networkInterface);
        if (result < 0)
        {
            throw NativeSocket.failure("join " + group.getHostAddress() + " on " + networkInterface.getName(), result);
        }
        final EpollMembership membership = new EpollMembership(this, group, networkInterface);
        memberships.add(membership);
        return membership;
    }

    @Override
    public MembershipKey join(final InetAddress group, final NetworkInterface networkInterface,
        final InetAddress source)
    {
        throw new UnsupportedOperationException("source-specific multicast is not on Celer's epoll transport");
    }

    /** A membership dropped: the socket leaves its group, unless it closed, which left them all. */
    void dropped(final EpollMembership membership)
    {
        memberships.remove(membership);
        if (!socket.isClosed())
        {
            membership(false, membership.group(), membership.networkInterface());
        }
    }

    /**
     * Joins or leaves a group for any source: {@code struct ip_mreqn} for IPv4 (an IPv6 socket takes it too, for
     * IPv4 groups), {@code struct ipv6_mreq} for IPv6.
     *
     * @return 0, or -errno.
     */
    private int membership(final boolean join, final InetAddress group, final NetworkInterface networkInterface)
    {
        final ThreadCalls thread = ThreadCalls.current();
        final MemorySegment request = thread.address;
        request.fill((byte)0);
        final byte[] address = group.getAddress();
        MemorySegment.copy(address, 0, request, ValueLayout.JAVA_BYTE, 0, address.length);
        if (group instanceof Inet4Address)
        {
            request.set(ValueLayout.JAVA_INT, 8, networkInterface.getIndex());
            return thread.calls.setOption(socket.fd, Net.IPPROTO_IP,
                join ? Net.IP_ADD_MEMBERSHIP : Net.IP_DROP_MEMBERSHIP, request, 12);
        }
        request.set(ValueLayout.JAVA_INT, 16, networkInterface.getIndex());
        return thread.calls.setOption(socket.fd, Net.IPPROTO_IPV6,
            join ? Net.IPV6_ADD_MEMBERSHIP : Net.IPV6_DROP_MEMBERSHIP, request, 20);
    }

    /**
     * Sets the interface multicast leaves by: IPv4's by {@code struct ip_mreqn}, and on an IPv6 socket IPv6's by
     * index as well, so that both families' groups leave by it.
     */
    private void multicastInterface(final NetworkInterface networkInterface) throws IOException
    {
        if (networkInterface == null)
        {
            throw new IllegalArgumentException("IP_MULTICAST_IF cannot be null");
        }
        socket.ensureOpen();
        final ThreadCalls thread = ThreadCalls.current();
        final MemorySegment request = thread.address;
        request.fill((byte)0);
        request.set(ValueLayout.JAVA_INT, 8, networkInterface.getIndex());
        final int ipv4 = thread.calls.setOption(socket.fd, Net.IPPROTO_IP, Net.IP_MULTICAST_IF, request, 12);
        if (socket.family == Net.AF_INET6)
        {
            final int ipv6 = thread.calls.setIntOption(socket.fd, Net.IPPROTO_IPV6, Net.IPV6_MULTICAST_IF,
                thread.scratch, networkInterface.getIndex());
            if (ipv6 < 0)
            {
                throw NativeSocket.failure("setsockopt IPV6_MULTICAST_IF", ipv6);
            }
        }
        else if (ipv4 < 0)
        {
            throw NativeSocket.failure("setsockopt IP_MULTICAST_IF", ipv4);
        }
        multicastInterface = networkInterface;
    }

    private void checkConnected() throws IOException
    {
        socket.ensureOpen();
        if (remote == null)
        {
            throw new NotYetConnectedException();
        }
    }

    private static InetSocketAddress resolved(final SocketAddress address)
    {
        if (!(Objects.requireNonNull(address) instanceof InetSocketAddress inet))
        {
            throw new UnsupportedAddressTypeException();
        }
        if (inet.isUnresolved())
        {
            throw new UnresolvedAddressException();
        }
        return inet;
    }

    @Override
    protected void implCloseSelectableChannel()
    {
        socket.close();
        for (final EpollMembership membership : memberships)
        {
            membership.invalidate();
        }
        memberships.clear();
    }

    @Override
    protected void implConfigureBlocking(final boolean block) throws IOException
    {
        NativeSocket.nonBlockingOnly(block);
    }

    @Override
    public String toString()
    {
        return "EpollDatagramChannel[fd " + socket.fd + (remote != null ? ", " + remote : "") + "]";
    }
}
