package io.celer.linux.nio;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.Channel;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Set;

import io.celer.linux.Errno;
import io.celer.linux.Net;
import io.celer.reactor.StreamListener;

/**
 * A listening TCP socket over a native descriptor, non-blocking only: {@code accept4} makes each connection
 * non-blocking and close-on-exec in the same call, and reads its peer's address with it; registered with an
 * {@link UringSelector}, a multishot accept of the ring does, and the peer's address is read right after.
 * Registered with an {@link EpollSelector}, it accepts {@link EpollStream}s for a reactor's server.
 */
final class EpollServerSocketChannel extends ServerSocketChannel implements EpollChannel, StreamListener
{
    private static final Set<SocketOption<?>> OPTIONS = Set.of(StandardSocketOptions.SO_RCVBUF,
        StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT);

    private final NativeSocket socket;
    private boolean bound;

    EpollServerSocketChannel(final SelectorProvider provider) throws IOException
    {
        super(provider);
        this.socket = NativeSocket.open();
        // As the JDK does for its listeners on Linux: a restarted server can bind at once.
        socket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
    }

    @Override
    public NativeSocket nativeSocket()
    {
        return socket;
    }

    @Override
    public boolean listens()
    {
        return true;
    }

    @Override
    public ServerSocketChannel bind(final SocketAddress local, final int backlog) throws IOException
    {
        socket.bind(local);
        final int result = ThreadCalls.current().calls.listen(socket.fd, backlog < 1 ? 50 : backlog);
        if (result < 0)
        {
            throw NativeSocket.failure("listen", result);
        }
        bound = true;
        return this;
    }

    @Override
    public <T> ServerSocketChannel setOption(final SocketOption<T> name, final T value) throws IOException
    {
        if (!OPTIONS.contains(name))
        {
            throw new UnsupportedOperationException("'" + name + "' is not supported by a listener");
        }
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
        return OPTIONS;
    }

    @Override
    public ServerSocket socket()
    {
        throw new UnsupportedOperationException("no java.net.ServerSocket view on Celer's epoll transport");
    }

    @Override
    public SocketChannel accept() throws IOException
    {
        checkListening();
        final UringChannelKey completing = socket.uring;
        if (completing != null)
        {
            final int accepted = completing.accepted();
            if (accepted < 0)
            {
                return null;
            }
            final MemorySegment peer = ringPeer(accepted);
            final EpollSocketChannel spare = ((NativeSelector)completing.selector()).takeSpare();
            if (spare == null)
            {
                return EpollSocketChannel.accepted(provider(), accepted, socket.family, peer);
            }
            spare.reopen(accepted, socket.family, peer);
            return spare;
        }
        final ThreadCalls thread = ThreadCalls.current();
        final int fd = accept4(thread);
        if (fd >= 0)
        {
            final EpollSelectionKey listening = socket.key;
            final EpollSocketChannel spare = listening == null ? null : listening.selectorImpl().takeSpare();
            if (spare == null)
            {
                return EpollSocketChannel.accepted(provider(), fd, socket.family, thread.address);
            }
            spare.reopen(fd, socket.family, thread.address);
            return spare;
        }
        return (SocketChannel)acceptFailed(fd);
    }

    /**
     * The ring's accept writes no address: read now, before the peer can reset the connection away (the one call
     * its close would otherwise make).
     *
     * @return the peer's address in the thread's scratch, or null where it could not be read.
     */
    private static MemorySegment ringPeer(final int fd)
    {
        return NativeSocket.readName(fd, false) == 0 ? ThreadCalls.current().address : null;
    }

    /**
     * Accepts a connection as one object, an {@link EpollStream} or on io_uring a {@link UringStream}, kept from an
     * earlier one where its selector has any.
     */
    @Override
    public Channel acceptStream() throws IOException
    {
        checkListening();
        final UringChannelKey completing = socket.uring;
        if (completing != null)
        {
            final int accepted = completing.accepted();
            if (accepted < 0)
            {
                return null;
            }
            final MemorySegment peer = ringPeer(accepted);
            final UringStream spare = completing.selector.takeSpareRingStream();
            if (spare == null)
            {
                return new UringStream(accepted, socket.family, peer);
            }
            spare.reopen(accepted, socket.family, peer);
            return spare;
        }
        final ThreadCalls thread = ThreadCalls.current();
        final int fd = accept4(thread);
        if (fd >= 0)
        {
            final EpollSelectionKey listening = socket.key;
            final EpollStream spare = listening == null ? null : listening.selectorImpl().takeSpareStream();
            if (spare == null)
            {
                return new EpollStream(fd, socket.family, thread.address);
            }
            spare.reopen(fd, socket.family, thread.address);
            return spare;
        }
        return acceptFailed(fd);
    }

    private void checkListening() throws IOException
    {
        socket.ensureOpen();
        if (!bound)
        {
            throw new NotYetBoundException();
        }
    }

    private int accept4(final ThreadCalls thread)
    {
        thread.scratch.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN6_SIZE);
        return thread.calls.accept(socket.fd, thread.address.address(), thread.scratch.address(),
            Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC);
    }

    /** Nothing to accept now, or a failure to throw. */
    private static Channel acceptFailed(final int fd) throws IOException
    {
        if (fd == -Errno.EAGAIN || fd == -Errno.EINTR || fd == -Errno.ECONNABORTED)
        {
            return null;
        }
        throw NativeSocket.failure("accept", fd);
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException
    {
        return bound ? socket.localAddress() : null;
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
        return "EpollServerSocketChannel[fd " + socket.fd + "]";
    }
}
