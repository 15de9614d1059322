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
 * An accepted TCP connection on io_uring as one object: its descriptor, its peer's address and its key, with the
 * ring's state for it (the buffers received and not yet read, the bytes staged for a send), where a channel needs
 * the JDK's channel base, a key and a socket object beside it. Its bytes go through the ring's completions while
 * registered, as {@link EpollSocketChannel}'s do. Closed for reuse, it sleeps until its selector has closed the
 * descriptor, then is kept for a later accept; closed for good, its key is cancelled. It has no channel:
 * {@link #channel()} is null, which only this package's selectors see.
 */
final class UringStream extends UringSelectionKey implements NativeStream
{
    private static final int VALID_OPS = SelectionKey.OP_READ | SelectionKey.OP_WRITE;

    /** Changed only by {@link #reopen}, on the reactor thread that then hands the socket on. */
    private int fd;
    private byte family;
    private volatile boolean closed;
    /** Whether its calls go through its selector's ring: from its registration until its selector lets go. */
    private boolean onRing;
    /** Its socket was closed for reuse ({@link #closeSocket}): its address stays readable until the recycle. */
    private boolean dormant;
    /** Its connection gave it back ({@link #recycle}); its selector closed the descriptor: kept once both are. */
    private boolean givenBack;
    private boolean socketGone;
    /**
     * An IPv4 peer's address as numbers (see {@link NativeSocket#inet4Peer}), made into an object only when asked;
     * 0 for an IPv6 peer, whose object is made at the accept, and for a peer gone before its address was read.
     */
    private long peer;
    private SocketAddress remote;

    /**
     * An accepted connection.
     *
     * @param fd       its descriptor, non-blocking.
     * @param family   its listener's family.
     * @param sockaddr the peer's address, or null where it could not be read.
     */
    UringStream(final int fd, final int family, final MemorySegment sockaddr)
    {
        reopen(fd, family, sockaddr);
    }

    /**
     * A kept stream takes a newly accepted descriptor; it takes a slot again at its next registration.
     */
    void reopen(final int fd, final int family, final MemorySegment sockaddr)
    {
        this.fd = fd;
        this.family = (byte)family;
        closed = false;
        dormant = false;
        givenBack = false;
        socketGone = false;
        onRing = false;
        peer = sockaddr == null ? 0 : NativeSocket.inet4Peer(sockaddr);
        remote = peer == 0 && sockaddr != null ? NativeSocket.address(sockaddr) : null;
    }

    @Override
    public int fd()
    {
        return fd;
    }

    /** None: a stream socket is its own key, which only this package's selectors see. */
    @Override
    public SelectableChannel channel()
    {
        return null;
    }

    @Override
    public int family()
    {
        return family;
    }

    @Override
    int validOps()
    {
        return VALID_OPS;
    }

    @Override
    boolean connected()
    {
        return true;
    }

    @Override
    boolean connectionPending()
    {
        return false;
    }

    @Override
    void takeSocket()
    {
        onRing = true;
    }

    @Override
    void leaveSocket()
    {
        onRing = false;
    }

    @Override
    void releaseSocket()
    {
        NativeSocket.release(fd);
    }

    @Override
    void socketReleased()
    {
        socketGone = true;
        if (givenBack)
        {
            keep();
        }
    }

    @Override
    public SelectionKey register(final Selector selector, final int ops, final Object attachment)
        throws ClosedChannelException
    {
        ensureOpen();
        if (!(selector instanceof UringSelector ring))
        {
            throw new IllegalSelectorException();
        }
        checkInterest(ops);
        return ring.register(this, ops, attachment);
    }

    /**
     * Closes the socket and keeps this object asleep for a later accept of its selector, which closes the
     * descriptor once the ring holds nothing of it; one never registered closes for good, and {@link #recycle}
     * then lets it go.
     */
    @Override
    public void closeSocket()
    {
        if (closed)
        {
            return;
        }
        if (selector != null && isValid() && !asleep && !released && selector.isOpen())
        {
            sleep();
            dormant = true;
            givenBack = false;
            socketGone = false;
            closed = true;
            channelClosed(); // the peer hears the end of the stream once the bytes staged are sent
            return;
        }
        close();
    }

    @Override
    public void recycle()
    {
        if (!dormant)
        {
            return;
        }
        givenBack = true;
        if (socketGone)
        {
            keep();
        }
    }

    /** Its connection and its selector both let go: kept for a later accept, unless the selector keeps no more. */
    private void keep()
    {
        dormant = false;
        selector.keepSpare(this);
    }

    /**
     * Closes for good: the selector closes the descriptor once the ring holds nothing of it, so that the number
     * the kernel hands out next is never mistaken for this one, and the key is cancelled.
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
        if (selector == null || released || !selector.isOpen())
        {
            onRing = false;
            NativeSocket.release(fd);
            return;
        }
        channelClosed();
        cancel();
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
        if (onRing)
        {
            final int read = readQueued(destination);
            if (read != FROM_SOCKET)
            {
                return read;
            }
        }
        final int read = NativeSocket.receive(fd, destination);
        if (read < 0 && onRing)
        {
            endOfStreamRead(); // a reset that a send took first fails it
        }
        return read;
    }

    @Override
    public int write(final ByteBuffer source) throws IOException
    {
        ensureOpen();
        if (!source.hasRemaining())
        {
            return 0;
        }
        if (onRing && !released)
        {
            return stage(source);
        }
        return NativeSocket.send(fd, source);
    }

    @Override
    public void shutdownOutput() throws IOException
    {
        ensureOpen();
        if (onRing && !released && shutdownOutputAfterStaged())
        {
            return; // shut once the bytes staged are sent
        }
        NativeSocket.shutdown(fd, Net.SHUT_WR);
    }

    /**
     * The peer's address; after {@link #closeSocket}, still, until it is recycled; null for a peer gone before
     * its address could be read.
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
            if (peer != 0)
            {
                remote = NativeSocket.inet4Address(peer);
            }
            else if (!closed)
            {
                remote = NativeSocket.name(fd, false);
            }
        }
        return remote;
    }

    @Override
    public String toString()
    {
        return "UringStream[fd " + fd + (closed ? ", closed" : "") + "]";
    }
}
