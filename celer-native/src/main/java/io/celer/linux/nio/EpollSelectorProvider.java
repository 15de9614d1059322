package io.celer.linux.nio;

import java.io.IOException;
import java.net.ProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;

/**
 * Celer's epoll transport as a {@link SelectorProvider}: selectors over an epoll set and IPv4 TCP channels over
 * native descriptors, all through FFM system calls. A reactor given it
 * ({@code new ReactorConfig().selectorProvider(EpollSelectorProvider.INSTANCE)}) runs every layer above it
 * unchanged. Not yet here: UDP, IPv6, pipes and blocking mode.
 */
public final class EpollSelectorProvider extends SelectorProvider
{
    /** The provider; it holds no state of its own. */
    public static final EpollSelectorProvider INSTANCE = new EpollSelectorProvider();

    private EpollSelectorProvider()
    {
    }

    @Override
    public AbstractSelector openSelector() throws IOException
    {
        return new EpollSelector(this);
    }

    @Override
    public ServerSocketChannel openServerSocketChannel() throws IOException
    {
        return new EpollServerSocketChannel(this);
    }

    @Override
    public SocketChannel openSocketChannel() throws IOException
    {
        return new EpollSocketChannel(this);
    }

    @Override
    public DatagramChannel openDatagramChannel()
    {
        throw new UnsupportedOperationException("UDP is not on Celer's epoll transport yet: use the JDK's provider");
    }

    @Override
    public DatagramChannel openDatagramChannel(final ProtocolFamily family)
    {
        throw new UnsupportedOperationException("UDP is not on Celer's epoll transport yet: use the JDK's provider");
    }

    @Override
    public Pipe openPipe()
    {
        throw new UnsupportedOperationException("no pipes on Celer's epoll transport");
    }
}
