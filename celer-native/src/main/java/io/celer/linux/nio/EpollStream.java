package io.celer.linux.nio;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

import io.celer.linux.Net;

/**
 * An accepted TCP connection on epoll as one object: its descriptor, its registration and its peer's address,
 * where a channel needs the JDK's channel base (three locks, a key array, an interruptor), a key and a socket
 * object beside it. Reads and writes are one system call each, as {@link EpollSocketChannel}'s are. Closed for
 * reuse, it sleeps out of its selector, which keeps it for a later accept; closed for good, its key is cancelled.
 * It has no channel: {@link #channel()} is null, which only this package's selectors see.
 */
final class EpollStream extends EpollKey implements NativeStream
{
    private static final int VALID_OPS = SelectionKey.OP_READ | SelectionKey.OP_WRITE;

    /** Changed only by {@link #reopen}, on the reactor thread that then hands the socket on. */
    private int fd;
    private byte family;
    private volatile boolean closed;
    /** Its socket was closed for reuse ({@link #closeSocket}): its address stays readable until the recycle. */
    private boolean dormant;
    /**
     * An IPv4 peer's address as numbers (KNOWN, the port, the address), made into an object only when asked;
     * 0 for an IPv6 peer, whose object is made at the accept.
     */
    private long peer;
    private SocketAddress remote;

    /**
     * An accepted connection.
     *
     * @param fd      its descriptor, non-blocking.
     * @param family  its listener's family.
     * @param sockaddr the peer's address as the accept wrote it.
     */
    EpollStream(final int fd, final int family, final MemorySegment sockaddr)
    {
        reopen(fd, family, sockaddr);
    }

    /**
     * A kept stream takes a newly accepted descriptor; it wakes at its next registration.
     */
    void reopen(final int fd, final int family, final MemorySegment sockaddr)
    {
        this.fd = fd;
        this.family = (byte)family;
        closed = false;
        dormant = false;
        peer = NativeSocket.inet4Peer(sockaddr);
        remote = peer == 0 ? NativeSocket.address(sockaddr) : null;
    }

    @Override
    public int fd()
    {
        return fd;
    }

    @Override
    public int family()
    {
        return family;
    }

    @Override
    boolean listens()
    {
        return false;
    }

    @Override
    int validOps()
    {
        return VALID_OPS;
    }

    @Override
    public SelectableChannel channel()
    {
        return null;
    }

    @Override
    public SelectionKey register(final Selector selector, final int ops, final Object attachment)
        throws ClosedChannelException
    {
        ensureOpen();
        if (!(selector instanceof EpollSelector epoll))
        {
            throw new IllegalSelectorException();
        }
        checkInterest(ops);
        return epoll.register(this, ops, attachment);
    }

    /**
     * Closes the socket and keeps this object asleep, out of its selector, for a later accept there; one never
     * registered closes for good, and {@link #recycle} then lets it go.
     */
    @Override
    public void closeSocket()
    {
        if (closed)
        {
            return;
        }
        if (selector != null && isValid() && !asleep)
        {
            sleep();
            dormant = true;
            closed = true;
            NativeSocket.release(fd);
            return;
        }
        close();
    }

    @Override
    public void recycle()
    {
        if (dormant)
        {
            dormant = false;
            // A selector that keeps no more, or has no listener, lets it go: it is closed and in no table.
            selector.keepSpare(this);
        }
    }

    /**
     * Closes for good: out of the epoll set and the table before the descriptor closes, so that the number the
     * kernel hands out next is never mistaken for this one, and the key cancelled.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        dormant = false;
        if (selector != null && !asleep)
        {
            selector.forget(this);
            cancel();
        }
        NativeSocket.release(fd);
    }

    @Override
    public boolean isOpen()
    {
        return !closed;
    }

    @Override
    public void ensureOpen() throws ClosedChannelException
    {
        if (closed)
        {
            throw new ClosedChannelException();
        }
    }

    @Override
    public int read(final ByteBuffer destination) throws IOException
    {
        ensureOpen();
        if (!destination.hasRemaining())
        {
            return 0;
        }
        return NativeSocket.receive(fd, destination);
    }

    @Override
    public int write(final ByteBuffer source) throws IOException
    {
        ensureOpen();
        if (!source.hasRemaining())
        {
            return 0;
        }
        return NativeSocket.send(fd, source);
    }

    @Override
    public void shutdownOutput() throws IOException
    {
        ensureOpen();
        NativeSocket.shutdown(fd, Net.SHUT_WR);
    }

    /**
     * The peer's address; after {@link #closeSocket}, still, until it is recycled.
     */
    @Override
    public SocketAddress getRemoteAddress() throws IOException
    {
        if (!dormant)
        {
            ensureOpen();
        }
        if (remote == null)
        {
            remote = peer != 0 ? NativeSocket.inet4Address(peer) : NativeSocket.name(fd, false);
        }
        return remote;
    }

    @Override
    public String toString()
    {
        return "EpollStream[fd " + fd + (closed ? ", closed" : "") + "]";
    }
}
