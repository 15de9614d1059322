package io.celer.linux.nio;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Set;

import io.celer.linux.Errno;
import io.celer.linux.Net;

/**
 * An IPv4 TCP socket's descriptor and what both channel kinds do with it: options, addresses, close. Composed
 * into each channel rather than inherited, since the JDK's channel classes are the base classes already.
 */
final class NativeSocket
{
    /** The options both kinds take; a listener's are a subset the JDK would accept too. */
    static final Set<SocketOption<?>> OPTIONS = Set.of(StandardSocketOptions.TCP_NODELAY,
        StandardSocketOptions.SO_KEEPALIVE, StandardSocketOptions.SO_SNDBUF, StandardSocketOptions.SO_RCVBUF,
        StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT);

    /** The last peer's address: many connections come from one host, which then costs no object per accept. */
    private static volatile InetAddress lastHost;

    final int fd;
    private volatile boolean closed;
    /** The key of the one selector it is registered with, if any: the selector must forget it before close. */
    EpollSelectionKey key;
    private InetSocketAddress local;

    NativeSocket(final int fd)
    {
        this.fd = fd;
    }

    /**
     * A new non-blocking IPv4 TCP socket.
     *
     * @throws IOException when the kernel refuses (no descriptors, say).
     */
    static NativeSocket open() throws IOException
    {
        final int fd = ThreadCalls.current().calls.socket(Net.AF_INET,
            Net.SOCK_STREAM | Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC, 0);
        if (fd < 0)
        {
            throw failure("socket", fd);
        }
        return new NativeSocket(fd);
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
     * Writes an address into the thread's {@code sockaddr_in}.
     *
     * @param address an IPv4 socket address, resolved here if it is not.
     * @return the structure.
     */
    static MemorySegment sockaddr(final ThreadCalls thread, final SocketAddress address) throws IOException
    {
        if (!(address instanceof InetSocketAddress inet))
        {
            throw new UnsupportedAddressTypeException();
        }
        final InetAddress host = inet.isUnresolved() ? InetAddress.getByName(inet.getHostString()) : inet.getAddress();
        if (!(host instanceof Inet4Address))
        {
            // IPv6 is still to come on this transport.
            throw new UnsupportedAddressTypeException();
        }
        final byte[] bytes = host.getAddress();
        final int ipv4 = (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | bytes[3] & 0xff;
        Net.writeInet4(thread.address, ipv4, inet.getPort());
        return thread.address;
    }

    /**
     * Reads back a {@code sockaddr_in} the kernel wrote.
     */
    static InetSocketAddress address(final MemorySegment sockaddr)
    {
        final int ipv4 = Net.inet4Address(sockaddr);
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
        return new InetSocketAddress(host, Net.inet4Port(sockaddr));
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
        final MemorySegment sockaddr = sockaddr(thread, address == null ? new InetSocketAddress(0) : address);
        final int result = thread.calls.bind(fd, sockaddr.address(), Net.SOCKADDR_IN_SIZE);
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

    /**
     * The socket's own address, or its peer's.
     */
    InetSocketAddress name(final boolean own) throws IOException
    {
        final ThreadCalls thread = ThreadCalls.current();
        thread.scratch.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN_SIZE);
        final int result = own ? thread.calls.localAddress(fd, thread.address.address(), thread.scratch.address())
            : thread.calls.peerAddress(fd, thread.address.address(), thread.scratch.address());
        if (result < 0)
        {
            throw failure(own ? "getsockname" : "getpeername", result);
        }
        return address(thread.address);
    }

    <T> void setOption(final SocketOption<T> name, final T value) throws IOException
    {
        ensureOpen();
        final int level = name == StandardSocketOptions.TCP_NODELAY ? Net.IPPROTO_TCP : Net.SOL_SOCKET;
        final int intValue = value instanceof Boolean flag ? (flag ? 1 : 0) : (Integer)value;
        final ThreadCalls thread = ThreadCalls.current();
        final int result = thread.calls.setIntOption(fd, level, optionId(name), thread.scratch, intValue);
        if (result < 0)
        {
            throw failure("setsockopt " + name, result);
        }
    }

    @SuppressWarnings("unchecked")
    <T> T getOption(final SocketOption<T> name) throws IOException
    {
        ensureOpen();
        final int level = name == StandardSocketOptions.TCP_NODELAY ? Net.IPPROTO_TCP : Net.SOL_SOCKET;
        final ThreadCalls thread = ThreadCalls.current();
        final int value = thread.calls.getIntOption(fd, level, optionId(name), thread.scratch);
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

    private static int optionId(final SocketOption<?> name)
    {
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
        final ThreadCalls thread = ThreadCalls.current();
        // As the JDK's channels do: the peer reads the end of the stream first, even when the close itself then
        // resets the connection for input this side left unread. A listener or an unconnected socket refuses.
        thread.calls.shutdown(fd, Net.SHUT_WR);
        thread.calls.close(fd);
    }
}
