package io.celer.linux.nio;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ConnectionPendingException;
import java.nio.channels.NoConnectionPendingException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelectionKey;
import java.nio.channels.spi.SelectorProvider;
import java.util.Set;

import io.celer.linux.Errno;
import io.celer.linux.Net;
import io.celer.reactor.ReusableChannel;

/**
 * A TCP connection over a native descriptor, non-blocking only. Registered with an {@link UringSelector}, its
 * bytes go through the ring's completions ({@link UringSelectionKey#readQueued}, {@link UringSelectionKey#stage});
 * otherwise reads and writes are one system call each
 * straight from a direct buffer's memory (a heap buffer goes through the thread's native scratch, as with the
 * JDK's channels), writes with {@code MSG_NOSIGNAL} so a closed peer is an {@link IOException}, not a signal.
 * Holds a descriptor, a key and its addresses: none of the JDK's locks, file descriptor object or socket view.
 */
final class EpollSocketChannel extends SocketChannel implements EpollChannel, ReusableChannel
{
    private static final byte UNCONNECTED = 0;
    private static final byte PENDING = 1;
    private static final byte CONNECTED = 2;

    private final NativeSocket socket;
    private byte state;
    private SocketAddress remote;
    private boolean inputShut;
    /**
     * An accepted IPv4 peer's address as numbers (KNOWN, the port, the address), made into an object only when
     * asked: 0 where there is none (an IPv6 peer, whose object is made at the accept; an accept through the ring
     * whose peer could not be read; a connect). One long, as an idle connection's every byte counts.
     */
    private long peer;
    /** Whether it came from an accept, the one kind of channel a selector keeps for reuse. */
    private boolean accepted;
    /** Its key, an epoll or an io_uring one, while its socket is closed for reuse: see {@link #closeSocket}. */
    private AbstractSelectionKey dormant;
    /** Its connection gave it back ({@link #recycle}); its key let go of the socket: kept once both are true. */
    private boolean givenBack;
    private boolean socketGone;

    EpollSocketChannel(final SelectorProvider provider) throws IOException
    {
        this(provider, NativeSocket.open(), UNCONNECTED, null);
    }

    EpollSocketChannel(final SelectorProvider provider, final NativeSocket socket, final byte state,
        final SocketAddress remote)
    {
        super(provider);
        this.socket = socket;
        this.state = state;
        this.remote = remote;
    }

    /**
     * An accepted connection, of its listener's family.
     *
     * @param peer the peer's {@code sockaddr} as the accept wrote it, or null where it wrote none.
     */
    static EpollSocketChannel accepted(final SelectorProvider provider, final int fd, final int family,
        final MemorySegment peer)
    {
        final EpollSocketChannel channel = new EpollSocketChannel(provider, new NativeSocket(fd, family), CONNECTED,
            null);
        channel.accepted = true;
        channel.peer(peer);
        return channel;
    }

    /**
     * A dormant channel takes a newly accepted descriptor; its key wakes at its next registration.
     *
     * @param peer the peer's {@code sockaddr} as the accept wrote it, or null where it wrote none.
     */
    void reopen(final int fd, final int family, final MemorySegment peer)
    {
        socket.reopen(fd, family);
        state = CONNECTED;
        remote = null;
        inputShut = false;
        dormant = null;
        givenBack = false;
        socketGone = false;
        peer(peer);
    }

    private void peer(final MemorySegment sockaddr)
    {
        peer = sockaddr == null ? 0 : NativeSocket.inet4Peer(sockaddr);
        if (peer == 0 && sockaddr != null)
        {
            remote = NativeSocket.address(sockaddr);
        }
    }

    /**
     * Closes the socket, keeping this object and its key, asleep, for a later accept of the same selector: on
     * epoll the socket leaves the epoll set and closes now; on io_uring its selector closes it once the ring holds
     * nothing of it. A channel that cannot be kept so (one it did not accept, one not registered) closes as
     * {@link #close} does, and {@link #recycle} then lets it go.
     */
    @Override
    public void closeSocket() throws IOException
    {
        final EpollSelectionKey key = socket.key;
        final UringSelectionKey ring = socket.uring;
        if (accepted && isOpen() && key != null)
        {
            key.sleep();
            dormant = key;
            socketGone = true;
        }
        else if (accepted && isOpen() && ring != null && ring.isValid() && !ring.asleep && !ring.released)
        {
            notePeer();
            ring.sleep();
            dormant = ring;
            socketGone = false;
        }
        else
        {
            close();
            return;
        }
        givenBack = false;
        socket.close();
    }

    /** The ring's accept gave no address: read now, while the socket is open, for its connection's last calls. */
    private void notePeer()
    {
        if (peer != 0 || remote != null)
        {
            return;
        }
        if (socket.readName(false) == 0)
        {
            peer(ThreadCalls.current().address);
        }
    }

    @Override
    public void recycle()
    {
        if (dormant == null)
        {
            return;
        }
        givenBack = true;
        if (socketGone)
        {
            keep();
        }
    }

    /** An io_uring selector closed the socket of this channel's sleeping key. */
    void socketReleased()
    {
        socketGone = true;
        if (givenBack)
        {
            keep();
        }
    }

    private void keep()
    {
        if (!((NativeSelector)dormant.selector()).keepSpare(this))
        {
            dormant = null;
            try
            {
                close();
            }
            catch (final IOException closed)
            {
                // Its socket is closed already: this only cancels its key.
            }
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
    public Socket socket()
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public SocketChannel bind(final SocketAddress local) throws IOException
    {
        socket.bind(local);
        return this;
    }

    @Override
    public <T> SocketChannel setOption(final SocketOption<T> name, final T value) throws IOException
    {
        socket.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(final SocketOption<T> name) throws IOException
    {
        return socket.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions()
    {
        return NativeSocket.OPTIONS;
    }

    @Override
    public SocketChannel shutdownInput() throws IOException
    {
        checkConnected();
        socket.shutdown(Net.SHUT_RD);
        inputShut = true;
        final UringSelectionKey completing = socket.uring;
        if (completing != null)
        {
            completing.inputShut();
        }
        return this;
    }

    @Override
    public SocketChannel shutdownOutput() throws IOException
    {
        checkConnected();
        final UringSelectionKey completing = socket.uring;
        if (completing != null && completing.shutdownOutputAfterStaged())
        {
            return this;
        }
        socket.shutdown(Net.SHUT_WR);
        return this;
    }

    @Override
    public boolean isConnected()
    {
        return state == CONNECTED;
    }

    @Override
    public boolean isConnectionPending()
    {
        return state == PENDING;
    }

    @Override
    public boolean connect(final SocketAddress address) throws IOException
    {
        socket.ensureOpen();
        if (state == CONNECTED)
        {
            throw new AlreadyConnectedException();
        }
        if (state == PENDING)
        {
            throw new ConnectionPendingException();
        }
        final ThreadCalls thread = ThreadCalls.current();
        final int length = NativeSocket.write(thread.address, socket.family, address);
        final int result = thread.calls.connect(socket.fd, thread.address.address(), length);
        remote = address;
        if (result == 0)
        {
            state = CONNECTED;
            return true;
        }
        if (result == -Errno.EINPROGRESS)
        {
            state = PENDING;
            return false;
        }
        throw NativeSocket.failure("connect to " + address, result);
    }

    @Override
    public boolean finishConnect() throws IOException
    {
        socket.ensureOpen();
        if (state == CONNECTED)
        {
            return true;
        }
        if (state != PENDING)
        {
            throw new NoConnectionPendingException();
        }
        final ThreadCalls thread = ThreadCalls.current();
        final int error = thread.calls.getIntOption(socket.fd, Net.SOL_SOCKET, Net.SO_ERROR, thread.scratch);
        if (error != 0)
        {
            final IOException failure = NativeSocket.failure("connect to " + remote, error < 0 ? error : -error);
            throw failure instanceof ConnectException ? failure : new ConnectException(failure.getMessage());
        }
        try
        {
            socket.name(false);
        }
        catch (final IOException notYet)
        {
            return false;
        }
        state = CONNECTED;
        return true;
    }

    /**
     * The peer's address; for a channel whose socket is closed for reuse, still, until it is reused.
     */
    @Override
    public SocketAddress getRemoteAddress() throws IOException
    {
        if (dormant == null)
        {
            socket.ensureOpen();
        }
        if (state == CONNECTED && remote == null)
        {
            if (peer != 0)
            {
                remote = NativeSocket.inet4Address(peer);
            }
            else if (!socket.isClosed())
            {
                // An accept through the ring whose peer's address could not be read then: asked for when wanted.
                remote = socket.name(false);
            }
            else
            {
                return null; // closed for reuse with its peer unknown: no address, and no exception to make
            }
        }
        return state == CONNECTED ? remote : null;
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException
    {
        return socket.localAddress();
    }

    private void checkConnected() throws IOException
    {
        socket.ensureOpen();
        if (state != CONNECTED)
        {
            throw new NotYetConnectedException();
        }
    }

    @Override
    public int read(final ByteBuffer destination) throws IOException
    {
        checkConnected();
        final int room = destination.remaining();
        if (inputShut)
        {
            return -1;
        }
        if (room == 0)
        {
            return 0;
        }
        final UringSelectionKey completing = socket.uring;
        if (completing != null)
        {
            final int read = completing.readQueued(destination);
            if (read != UringSelectionKey.FROM_SOCKET)
            {
                return read;
            }
        }
        final int read = NativeSocket.receive(socket.fd, destination);
        if (read < 0 && completing != null)
        {
            completing.endOfStreamRead(); // a reset that a send took first fails it
        }
        return read;
    }

    @Override
    public long read(final ByteBuffer[] destinations, final int offset, final int length) throws IOException
    {
        long total = 0;
        for (int i = offset; i < offset + length; i++)
        {
            final int room = destinations[i].remaining();
            final int read = read(destinations[i]);
            if (read < 0)
            {
                return total == 0 ? -1 : total;
            }
            total += read;
            if (read < room)
            {
                break;
            }
        }
        return total;
    }

    @Override
    public int write(final ByteBuffer source) throws IOException
    {
        checkConnected();
        final int length = source.remaining();
        if (length == 0)
        {
            return 0;
        }
        final UringSelectionKey completing = socket.uring;
        if (completing != null && !completing.released)
        {
            return completing.stage(source);
        }
        return NativeSocket.send(socket.fd, source);
    }

    @Override
    public long write(final ByteBuffer[] sources, final int offset, final int length) throws IOException
    {
        long total = 0;
        for (int i = offset; i < offset + length; i++)
        {
            final int wanted = sources[i].remaining();
            final int written = write(sources[i]);
            total += written;
            if (written < wanted)
            {
                break;
            }
        }
        return total;
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
        return "EpollSocketChannel[fd " + socket.fd + (remote != null ? ", " + remote : "") + "]";
    }
}
