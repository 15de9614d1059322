package io.celer.linux.nio;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NetworkChannel;
import java.util.Set;

import io.celer.reactor.StreamSocket;

/**
 * What the native transports' accepted stream sockets ({@link EpollStream}, {@link UringStream}) share: a
 * descriptor of one family, and the calls on it that neither transport's ring or epoll set takes part in.
 */
interface NativeStream extends StreamSocket
{
    /**
     * Its descriptor.
     *
     * @return the descriptor now.
     */
    int fd();

    /**
     * Its listener's family.
     *
     * @return {@link io.celer.linux.Net#AF_INET} or {@link io.celer.linux.Net#AF_INET6}.
     */
    int family();

    /**
     * Fails once it is closed.
     *
     * @throws ClosedChannelException if it is.
     */
    void ensureOpen() throws ClosedChannelException;

    @Override
    default SocketAddress getLocalAddress() throws IOException
    {
        ensureOpen();
        return NativeSocket.name(fd(), true);
    }

    @Override
    default NetworkChannel bind(final SocketAddress local) throws IOException
    {
        ensureOpen();
        throw new AlreadyBoundException();
    }

    @Override
    default <T> NetworkChannel setOption(final SocketOption<T> name, final T value) throws IOException
    {
        ensureOpen();
        NativeSocket.setOption(fd(), family(), name, value);
        return this;
    }

    @Override
    default <T> T getOption(final SocketOption<T> name) throws IOException
    {
        ensureOpen();
        return NativeSocket.getOption(fd(), family(), name);
    }

    @Override
    default Set<SocketOption<?>> supportedOptions()
    {
        return NativeSocket.OPTIONS;
    }
}
