package io.celer.linux.nio;

import java.io.IOException;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;

import io.celer.linux.Net;

/**
 * Celer's epoll transport as a {@link SelectorProvider}: selectors over an epoll set, IPv4 TCP channels and IPv4
 * and IPv6 UDP channels over native descriptors, all through FFM system calls. A reactor given it
 * ({@code new ReactorConfig().selectorProvider(EpollSelectorProvider.INSTANCE)}) runs every layer above it
 * unchanged. Not yet here: IPv6 TCP, multicast, pipes and
 * blocking mode.
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

    /**
     * A UDP channel, IPv6 taking IPv4 too where the host has IPv6, as the JDK's; else IPv4.
     */
    @Override
    public DatagramChannel openDatagramChannel() throws IOException
    {
        return datagramChannel(this);
    }

    @Override
    public DatagramChannel openDatagramChannel(final ProtocolFamily family) throws IOException
    {
        return datagramChannel(this, family);
    }

    static DatagramChannel datagramChannel(final SelectorProvider provider) throws IOException
    {
        try
        {
            return new EpollDatagramChannel(provider, Net.AF_INET6);
        }
        catch (final IOException noIpv6)
        {
            return new EpollDatagramChannel(provider, Net.AF_INET);
        }
    }

    static DatagramChannel datagramChannel(final SelectorProvider provider, final ProtocolFamily family)
        throws IOException
    {
        if (family == StandardProtocolFamily.INET)
        {
            return new EpollDatagramChannel(provider, Net.AF_INET);
        }
        if (family == StandardProtocolFamily.INET6)
        {
            return new EpollDatagramChannel(provider, Net.AF_INET6);
        }
        throw new UnsupportedOperationException("no " + family + " datagrams on Celer's native transports");
    }

    @Override
    public Pipe openPipe()
    {
        throw new UnsupportedOperationException("no pipes on Celer's epoll transport");
    }
}
