package io.celer.linux.nio;

import java.io.IOException;
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
import java.nio.channels.spi.SelectorProvider;
import java.util.Set;

import io.celer.linux.Errno;
import io.celer.linux.Net;

/**
 * A TCP connection over a native descriptor, non-blocking only. Registered with an {@link UringSelector}, its
 * bytes go through the ring's completions ({@link UringSelectionKey#read}, {@link UringSelectionKey#write});
 * otherwise reads and writes are one system call each
 * straight from a direct buffer's memory (a heap buffer goes through the thread's native scratch, as with the
 * JDK's channels), writes with {@code MSG_NOSIGNAL} so a closed peer is an {@link IOException}, not a signal.
 * Holds a descriptor, a key and its addresses: none of the JDK's locks, file descriptor object or socket view.
 */
final class EpollSocketChannel extends SocketChannel implements EpollChannel
{
    private static final int UNCONNECTED = 0;
    private static final int PENDING = 1;
    private static final int CONNECTED = 2;

    private final NativeSocket socket;
    private int state;
    private SocketAddress remote;
    private boolean inputShut;

    EpollSocketChannel(final SelectorProvider provider) throws IOException
    {
        this(provider, NativeSocket.open(), UNCONNECTED, null);
    }

    EpollSocketChannel(final SelectorProvider provider, final NativeSocket socket, final int state,
        final SocketAddress remote)
    {
        super(provider);
        this.socket = socket;
        this.state = state;
        this.remote = remote;
    }

    /** An accepted connection, of its listener's family. */
    static EpollSocketChannel accepted(final SelectorProvider provider, final int fd, final int family,
        final SocketAddress remote)
    {
        return new EpollSocketChannel(provider, new NativeSocket(fd, family), CONNECTED, remote);
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

    @Override
    public SocketAddress getRemoteAddress() throws IOException
    {
        socket.ensureOpen();
        if (state == CONNECTED && remote == null)
        {
            // An accept through the ring does not read the peer's address: asked for when wanted.
            remote = socket.name(false);
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
            final int read = completing.read(destination);
            if (read != UringSelectionKey.FROM_SOCKET)
            {
                return read;
            }
        }
        final long read = ThreadCalls.current().receive(socket.fd, destination, 0L, 0L);
        if (read > 0)
        {
            return (int)read;
        }
        if (read == 0)
        {
            if (completing != null)
            {
                completing.endOfStreamRead(); // a reset that a send took first fails it
            }
            return -1;
        }
        if (read == -Errno.EAGAIN || read == -Errno.EINTR)
        {
            return 0;
        }
        throw NativeSocket.failure("read", read);
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
            return completing.write(source);
        }
        final long written = ThreadCalls.current().send(socket.fd, source, 0L, 0);
        if (written >= 0)
        {
            return (int)written;
        }
        if (written == -Errno.EAGAIN || written == -Errno.EINTR)
        {
            return 0;
        }
        throw NativeSocket.failure("write", written);
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
