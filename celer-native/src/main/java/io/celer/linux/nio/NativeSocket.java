package io.celer.linux.nio;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Set;

import io.celer.linux.Errno;
import io.celer.linux.Net;

/**
 * A socket's descriptor and what every channel kind does with it: options, addresses, close. Composed into each
 * channel rather than inherited, since the JDK's channel classes are the base classes already. Sockets are IPv6
 * taking IPv4 too, as the JDK's are, where the host has IPv6; else IPv4.
 */
final class NativeSocket
{
    /** The options both kinds take; a listener's are a subset the JDK would accept too. */
    static final Set<SocketOption<?>> OPTIONS = Set.of(StandardSocketOptions.TCP_NODELAY,
        StandardSocketOptions.SO_KEEPALIVE, StandardSocketOptions.SO_SNDBUF, StandardSocketOptions.SO_RCVBUF,
        StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT);

    /** Where a {@code sockaddr_in6} holds its address. */
    private static final long IN6_ADDR = 8;
    private static final ValueLayout.OfLong BIG_LONG =
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);

    /** Marks an {@link #inet4Peer} number as one, so that 0.0.0.0:0 is not taken for none. */
    static final long KNOWN = 1L << 48;

    /** The last peer's address: many connections come from one host, which then costs no object per accept. */
    private static volatile InetAddress lastHost;

    /** Changed only by {@link #reopen}, on the reactor thread that then hands the channel on. */
    int fd;
    /** {@link Net#AF_INET} or {@link Net#AF_INET6}; a byte, which with the flag beside it spares 8 bytes a socket. */
    byte family;
    private volatile boolean closed;
    /** The key of the one selector it is registered with, if any: the selector must forget it before close. */
    EpollSelectionKey key;
    /** Its key with a {@link UringSelector}, whose completions carry its bytes, if registered with one. */
    UringChannelKey uring;
    private InetSocketAddress local;

    NativeSocket(final int fd, final int family)
    {
        this.fd = fd;
        this.family = (byte)family;
    }

    /**
     * A new non-blocking TCP socket: IPv6 taking IPv4 peers too where the host has IPv6, else IPv4.
     *
     * @throws IOException when the kernel refuses (no descriptors, say).
     */
    static NativeSocket open() throws IOException
    {
        final ThreadCalls thread = ThreadCalls.current();
        final int fd = thread.calls.socket(Net.AF_INET6, Net.SOCK_STREAM | Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC, 0);
        if (fd == -Errno.EAFNOSUPPORT)
        {
            return open(Net.AF_INET, Net.SOCK_STREAM);
        }
        if (fd < 0)
        {
            throw failure("socket", fd);
        }
        final NativeSocket socket = new NativeSocket(fd, Net.AF_INET6);
        socket.takeIpv4Too();
        return socket;
    }

    /** An IPv6 socket takes IPv4 peers, whatever the host's default ({@code net.ipv6.bindv6only}) says. */
    void takeIpv4Too() throws IOException
    {
        final ThreadCalls thread = ThreadCalls.current();
        final int result = thread.calls.setIntOption(fd, Net.IPPROTO_IPV6, Net.IPV6_V6ONLY, thread.scratch, 0);
        if (result < 0)
        {
            close();
            throw failure("setsockopt IPV6_V6ONLY", result);
        }
    }

    /**
     * A new non-blocking socket.
     *
     * @param family {@link Net#AF_INET} or {@link Net#AF_INET6}.
     * @param type   {@link Net#SOCK_STREAM} or {@link Net#SOCK_DGRAM}.
     * @throws IOException when the kernel refuses (no descriptors, no IPv6, say).
     */
    static NativeSocket open(final int family, final int type) throws IOException
    {
        final int fd = ThreadCalls.current().calls.socket(family, type | Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC, 0);
        if (fd < 0)
        {
            throw failure("socket", fd);
        }
        return new NativeSocket(fd, family);
    }

    static IOException failure(final String call, final long errno)
    {
        final int value = (int)-errno;
        final String text = switch (value)
        {
            case Errno.ECONNRESET -> "Connection reset";
            case Errno.EPIPE -> "Broken pipe";
            case Errno.EMFILE, Errno.ENFILE -> "Too many open files";
            case Errno.ECONNREFUSED -> "Connection refused";
            case Errno.EADDRINUSE -> "Address already in use";
            case Errno.EMSGSIZE -> "Message too long";
            default -> call + " failed";
        };
        final String message = text + " (" + call + ": " + Errno.name(value) + ")";
        return value == Errno.ECONNREFUSED ? new java.net.ConnectException(message)
            : value == Errno.EADDRINUSE ? new java.net.BindException(message) : new IOException(message);
    }

    /**
     * Refuses blocking mode: a descriptor is made non-blocking and stays so, since a reactor never blocks on a
     * socket.
     */
    static void nonBlockingOnly(final boolean block) throws IOException
    {
        if (block)
        {
            throw new IOException("Celer's epoll transport has non-blocking channels only");
        }
    }

    /**
     * A closed socket's object takes a newly accepted descriptor: a reused channel's.
     *
     * @param fd     the descriptor.
     * @param family its listener's family.
     */
    void reopen(final int fd, final int family)
    {
        this.fd = fd;
        this.family = (byte)family;
        local = null;
        closed = false;
    }

    boolean isClosed()
    {
        return closed;
    }

    void ensureOpen() throws IOException
    {
        if (closed)
        {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    /**
     * Writes an address as a socket of a family takes it: an IPv6 socket takes an IPv4 address as IPv4-mapped.
     *
     * @param into    at least {@link Net#SOCKADDR_IN6_SIZE} bytes.
     * @param family  the socket's.
     * @param address a socket address, resolved here if it is not.
     * @return the structure's length.
     */
    static int write(final MemorySegment into, final int family, final SocketAddress address) throws IOException
    {
        if (!(address instanceof InetSocketAddress inet))
        {
            throw new UnsupportedAddressTypeException();
        }
        final InetAddress host = inet.isUnresolved() ? InetAddress.getByName(inet.getHostString()) : inet.getAddress();
        final byte[] bytes = host.getAddress();
        if (family == Net.AF_INET)
        {
            if (!(host instanceof Inet4Address))
            {
                throw new UnsupportedAddressTypeException();
            }
            Net.writeInet4(into, (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 |
                bytes[3] & 0xff, inet.getPort());
            return Net.SOCKADDR_IN_SIZE;
        }
        if (host instanceof Inet6Address ipv6)
        {
            Net.writeInet6(into, bytes, inet.getPort(), ipv6.getScopeId());
        }
        else if (host.isAnyLocalAddress())
        {
            // 0.0.0.0 on an IPv6 socket is its wildcard, ::, which takes both families, as with the JDK's.
            Net.writeInet6(into, new byte[16], inet.getPort(), 0);
        }
        else
        {
            final byte[] mapped = new byte[16];
            mapped[10] = (byte)0xff;
            mapped[11] = (byte)0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            Net.writeInet6(into, mapped, inet.getPort(), 0);
        }
        return Net.SOCKADDR_IN6_SIZE;
    }

    /**
     * Reads back a {@code sockaddr_in} or {@code sockaddr_in6} the kernel wrote; an IPv4-mapped address comes back
     * as the IPv4 address, as from the JDK's channels.
     */
    static InetSocketAddress address(final MemorySegment sockaddr)
    {
        final long ipv4 = inet4Peer(sockaddr);
        if (ipv4 != 0)
        {
            // An IPv4 peer, or one of a socket that takes both: as from the JDK's channels, its IPv4 address, and
            // through the cache, so that accepting it costs no more than on an IPv4 socket.
            return inet4Address(ipv4);
        }
        try
        {
            final byte[] bytes = Net.inet6Address(sockaddr);
            final int scope = Net.inet6ScopeId(sockaddr);
            // A scope only for a link-local address, so that others print without a "%0".
            final InetAddress host = scope == 0 ? InetAddress.getByAddress(null, bytes)
                : Inet6Address.getByAddress(null, bytes, scope);
            return new InetSocketAddress(host, Net.inet4Port(sockaddr));
        }
        catch (final UnknownHostException cannot)
        {
            throw new IllegalStateException(cannot);
        }
    }

    /**
     * An IPv4 address and port (an IPv4-mapped one of an IPv6 socket included) as one number: {@link #KNOWN}, the
     * port in bits 32 to 47, the address below; 0 for an IPv6 address.
     */
    static long inet4Peer(final MemorySegment sockaddr)
    {
        final long port = (long)Net.inet4Port(sockaddr) << 32;
        if (Net.family(sockaddr) != Net.AF_INET6)
        {
            return KNOWN | port | Net.inet4Address(sockaddr) & 0xffffffffL;
        }
        final long high = sockaddr.get(BIG_LONG, IN6_ADDR);
        final long low = sockaddr.get(BIG_LONG, IN6_ADDR + 8);
        return high == 0 && (low >>> 32) == 0xffffL ? KNOWN | port | low & 0xffffffffL : 0;
    }

    /**
     * The address an {@link #inet4Peer} number holds.
     */
    static InetSocketAddress inet4Address(final long inet4Peer)
    {
        return inet4((int)inet4Peer, (int)(inet4Peer >>> 32) & 0xffff);
    }

    private static InetSocketAddress inet4(final int ipv4, final int port)
    {
        InetAddress host = lastHost;
        if (host == null || addressOf(host) != ipv4)
        {
            try
            {
                host = InetAddress.getByAddress(new byte[] {(byte)(ipv4 >>> 24), (byte)(ipv4 >>> 16),
                    (byte)(ipv4 >>> 8), (byte)ipv4});
            }
            catch (final UnknownHostException cannot)
            {
                throw new IllegalStateException(cannot);
            }
            lastHost = host;
        }
        return new InetSocketAddress(host, port);
    }

    private static int addressOf(final InetAddress host)
    {
        final byte[] bytes = host.getAddress();
        return (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | bytes[3] & 0xff;
    }

    void bind(final SocketAddress address) throws IOException
    {
        ensureOpen();
        final ThreadCalls thread = ThreadCalls.current();
        final int length = write(thread.address, family, address == null ? new InetSocketAddress(0) : address);
        final int result = thread.calls.bind(fd, thread.address.address(), length);
        if (result < 0)
        {
            throw failure("bind", result);
        }
        local = null;
    }

    InetSocketAddress localAddress() throws IOException
    {
        ensureOpen();
        if (local == null)
        {
            local = name(true);
        }
        return local;
    }

    /** The kernel may have given the socket another local address (a connect, say): ask again when needed. */
    void localChanged()
    {
        local = null;
    }

    /**
     * The socket's own address, or its peer's.
     */
    InetSocketAddress name(final boolean own) throws IOException
    {
        return name(fd, own);
    }

    /**
     * A socket's own address, or its peer's.
     */
    static InetSocketAddress name(final int fd, final boolean own) throws IOException
    {
        final int result = readName(fd, own);
        if (result < 0)
        {
            throw failure(own ? "getsockname" : "getpeername", result);
        }
        return address(ThreadCalls.current().address);
    }

    /**
     * Reads the socket's own address, or its peer's, into the thread's {@link ThreadCalls#address}, making no
     * object.
     *
     * @return 0, or -errno.
     */
    int readName(final boolean own)
    {
        return readName(fd, own);
    }

    static int readName(final int fd, final boolean own)
    {
        final ThreadCalls thread = ThreadCalls.current();
        thread.scratch.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN6_SIZE);
        return own ? thread.calls.localAddress(fd, thread.address.address(), thread.scratch.address())
            : thread.calls.peerAddress(fd, thread.address.address(), thread.scratch.address());
    }

    <T> void setOption(final SocketOption<T> name, final T value) throws IOException
    {
        ensureOpen();
        setOption(fd, family, name, value);
    }

    /** Sets an option of an open socket. */
    static <T> void setOption(final int fd, final int family, final SocketOption<T> name, final T value)
        throws IOException
    {
        final int intValue = value instanceof Boolean flag ? (flag ? 1 : 0) : (Integer)value;
        final ThreadCalls thread = ThreadCalls.current();
        final int result = thread.calls.setIntOption(fd, level(family, name), optionId(family, name),
            thread.scratch, intValue);
        if (result < 0)
        {
            throw failure("setsockopt " + name, result);
        }
    }

    <T> T getOption(final SocketOption<T> name) throws IOException
    {
        ensureOpen();
        return getOption(fd, family, name);
    }

    /** An option of an open socket. */
    @SuppressWarnings("unchecked")
    static <T> T getOption(final int fd, final int family, final SocketOption<T> name) throws IOException
    {
        final ThreadCalls thread = ThreadCalls.current();
        final int value = thread.calls.getIntOption(fd, level(family, name), optionId(family, name),
            thread.scratch);
        if (value < 0)
        {
            throw failure("getsockopt " + name, value);
        }
        if (name == StandardSocketOptions.SO_SNDBUF || name == StandardSocketOptions.SO_RCVBUF)
        {
            // Linux reports twice the size set (its bookkeeping overhead); the JDK halves it to give back the
            // value set, and so does this.
            return (T)Integer.valueOf(value / 2);
        }
        return name.type() == Boolean.class ? (T)Boolean.valueOf(value != 0) : (T)Integer.valueOf(value);
    }

    private static int level(final int family, final SocketOption<?> name)
    {
        if (name == StandardSocketOptions.TCP_NODELAY)
        {
            return Net.IPPROTO_TCP;
        }
        if (name == StandardSocketOptions.IP_TOS || name == StandardSocketOptions.IP_MULTICAST_TTL ||
            name == StandardSocketOptions.IP_MULTICAST_LOOP)
        {
            return family == Net.AF_INET6 ? Net.IPPROTO_IPV6 : Net.IPPROTO_IP;
        }
        return Net.SOL_SOCKET;
    }

    private static int optionId(final int family, final SocketOption<?> name)
    {
        if (name == StandardSocketOptions.IP_TOS)
        {
            return family == Net.AF_INET6 ? Net.IPV6_TCLASS : Net.IP_TOS;
        }
        if (name == StandardSocketOptions.IP_MULTICAST_TTL)
        {
            return family == Net.AF_INET6 ? Net.IPV6_MULTICAST_HOPS : Net.IP_MULTICAST_TTL;
        }
        if (name == StandardSocketOptions.IP_MULTICAST_LOOP)
        {
            return family == Net.AF_INET6 ? Net.IPV6_MULTICAST_LOOP : Net.IP_MULTICAST_LOOP;
        }
        if (name == StandardSocketOptions.SO_BROADCAST)
        {
            return Net.SO_BROADCAST;
        }
        if (name == StandardSocketOptions.TCP_NODELAY)
        {
            return Net.TCP_NODELAY;
        }
        if (name == StandardSocketOptions.SO_KEEPALIVE)
        {
            return Net.SO_KEEPALIVE;
        }
        if (name == StandardSocketOptions.SO_SNDBUF)
        {
            return Net.SO_SNDBUF;
        }
        if (name == StandardSocketOptions.SO_RCVBUF)
        {
            return Net.SO_RCVBUF;
        }
        if (name == StandardSocketOptions.SO_REUSEADDR)
        {
            return Net.SO_REUSEADDR;
        }
        if (name == StandardSocketOptions.SO_REUSEPORT)
        {
            return Net.SO_REUSEPORT;
        }
        throw new UnsupportedOperationException("'" + name + "' is not supported on Celer's epoll transport");
    }

    void shutdown(final int how) throws IOException
    {
        ensureOpen();
        shutdown(fd, how);
    }

    /**
     * Reads a connected socket once, from a direct buffer's memory or through the thread's scratch.
     *
     * @return bytes read, 0 when none wait, -1 at the end of the stream.
     * @throws IOException if the kernel fails the read (a reset, say).
     */
    static int receive(final int fd, final ByteBuffer destination) throws IOException
    {
        final long read = ThreadCalls.current().receive(fd, destination, 0L, 0L);
        if (read > 0)
        {
            return (int)read;
        }
        if (read == 0)
        {
            return -1;
        }
        if (read == -Errno.EAGAIN || read == -Errno.EINTR)
        {
            return 0;
        }
        throw failure("read", read);
    }

    /**
     * Writes to a connected socket once, with {@code MSG_NOSIGNAL}, so a closed peer is an exception.
     *
     * @return bytes written, 0 when the socket takes none now.
     * @throws IOException if the kernel fails the write.
     */
    static int send(final int fd, final ByteBuffer source) throws IOException
    {
        final long written = ThreadCalls.current().send(fd, source, 0L, 0);
        if (written >= 0)
        {
            return (int)written;
        }
        if (written == -Errno.EAGAIN || written == -Errno.EINTR)
        {
            return 0;
        }
        throw failure("write", written);
    }

    /** Shuts a side of an open socket; an unconnected one's refusal is no failure. */
    static void shutdown(final int fd, final int how) throws IOException
    {
        final int result = ThreadCalls.current().calls.shutdown(fd, how);
        if (result < 0 && result != -Errno.ENOTCONN)
        {
            throw failure("shutdown", result);
        }
    }

    /**
     * Closes the descriptor, once; its selector forgets it first, so that a descriptor number the kernel hands
     * out again is never mistaken for this one.
     */
    void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final EpollSelectionKey registered = key;
        if (registered != null)
        {
            registered.selectorImpl().forget(registered);
        }
        final UringChannelKey completing = uring;
        if (completing != null)
        {
            // The ring may hold the socket (an armed receive, a send under way): its selector closes the
            // descriptor once nothing does, so that the kernel cannot give its number to another socket first.
            completing.channelClosed();
            return;
        }
        release();
    }

    /**
     * Closes the descriptor itself. As the JDK's channels do, the peer reads the end of the stream first, even when
     * the close itself then resets the connection for input this side left unread; a listener or an unconnected
     * socket refuses the shutdown, harmlessly.
     */
    void release()
    {
        release(fd);
    }

    /** Closes a descriptor, its output shut first: see {@link #release()}. */
    static void release(final int fd)
    {
        final ThreadCalls thread = ThreadCalls.current();
        thread.calls.shutdown(fd, Net.SHUT_WR);
        thread.calls.close(fd);
    }
}
