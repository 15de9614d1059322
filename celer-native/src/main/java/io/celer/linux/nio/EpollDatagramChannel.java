package io.celer.linux.nio;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.DatagramSocket;
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
import java.util.Objects;
import java.util.Set;

import io.celer.linux.Errno;
import io.celer.linux.Net;

/**
 * A UDP socket over a native descriptor, IPv4 or IPv6, non-blocking only: a datagram is one {@code recvfrom} or
 * {@code sendto} straight from a direct buffer's memory. Garbage-free per datagram as the JDK's channel is: the
 * sender of the last datagram received is given again while the next comes from the same address, and the
 * address of the last target is written to native memory once while it does not change. For one thread at a time,
 * as a reactor uses it, where the JDK's channel locks. Not here yet: multicast
 * ({@link #join}), scattering reads and gathering writes of several buffers, and a {@link DatagramSocket} view.
 */
final class EpollDatagramChannel extends DatagramChannel implements EpollChannel
{
    private static final Set<SocketOption<?>> OPTIONS = Set.of(StandardSocketOptions.SO_SNDBUF,
        StandardSocketOptions.SO_RCVBUF, StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT,
        StandardSocketOptions.SO_BROADCAST, StandardSocketOptions.IP_TOS, StandardSocketOptions.IP_MULTICAST_TTL,
        StandardSocketOptions.IP_MULTICAST_LOOP);

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

    EpollDatagramChannel(final SelectorProvider provider, final int family) throws IOException
    {
        super(provider);
        this.socket = NativeSocket.open(family, Net.SOCK_DGRAM);
        final MemorySegment memory = Arena.ofAuto().allocate(3 * 32 + 8, 8);
        this.target = memory.asSlice(0, Net.SOCKADDR_IN6_SIZE);
        this.sender = memory.asSlice(32, Net.SOCKADDR_IN6_SIZE);
        this.lastSender = memory.asSlice(64, Net.SOCKADDR_IN6_SIZE);
        this.senderLength = memory.asSlice(96, 4);
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
    public MembershipKey join(final InetAddress group, final NetworkInterface networkInterface)
    {
        throw new UnsupportedOperationException("multicast is not on Celer's epoll transport yet");
    }

    @Override
    public MembershipKey join(final InetAddress group, final NetworkInterface networkInterface,
        final InetAddress source)
    {
        throw new UnsupportedOperationException("multicast is not on Celer's epoll transport yet");
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
