package io.celer.bench.peer.netty42;

import java.util.concurrent.ThreadFactory;

import io.celer.bench.peer.netty.NettyLine;
import io.celer.bench.peer.netty.NettyTransport;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategy;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

/**
 * Netty 4.2's transports as 4.2 prefers them: a {@link MultiThreadIoEventLoopGroup} of the transport's
 * {@code IoHandler}, io_uring among them, each with its default settings.
 */
public final class Netty42Line implements NettyLine
{
    @Override
    public String name()
    {
        return "Netty 4.2";
    }

    @Override
    public Throwable unavailabilityCause(final NettyTransport transport)
    {
        switch (transport)
        {
            case NIO:
                return null;
            case URING:
                return IoUring.unavailabilityCause();
            default:
                return Epoll.unavailabilityCause();
        }
    }

    @Override
    public EventLoopGroup newGroup(final NettyTransport transport, final int loops, final ThreadFactory threads)
    {
        return new MultiThreadIoEventLoopGroup(loops, threads, handlers(transport));
    }

    private static IoHandlerFactory handlers(final NettyTransport transport)
    {
        switch (transport)
        {
            case NIO:
                return NioIoHandler.newFactory();
            case EPOLL:
                return EpollIoHandler.newFactory();
            case EPOLL_BUSY:
                // As on 4.1: queued tasks still get a non-blocking epoll pass; only an idle loop busy-waits.
                return EpollIoHandler.newFactory(0, () -> (selectNow, hasTasks) ->
                    hasTasks ? selectNow.get() : SelectStrategy.BUSY_WAIT);
            default:
                return IoUringIoHandler.newFactory();
        }
    }

    @Override
    public Class<? extends ServerChannel> serverChannel(final NettyTransport transport)
    {
        switch (transport)
        {
            case NIO:
                return NioServerSocketChannel.class;
            case URING:
                return IoUringServerSocketChannel.class;
            default:
                return EpollServerSocketChannel.class;
        }
    }

    @Override
    public Class<? extends SocketChannel> socketChannel(final NettyTransport transport)
    {
        switch (transport)
        {
            case NIO:
                return NioSocketChannel.class;
            case URING:
                return IoUringSocketChannel.class;
            default:
                return EpollSocketChannel.class;
        }
    }

    @Override
    public Class<? extends DatagramChannel> datagramChannel(final NettyTransport transport)
    {
        switch (transport)
        {
            case NIO:
                return NioDatagramChannel.class;
            case URING:
                return IoUringDatagramChannel.class;
            default:
                return EpollDatagramChannel.class;
        }
    }
}
