package io.celer.bench.peer.netty;

import java.util.concurrent.ThreadFactory;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * Netty 4.1's transports, the line Vert.x runs on: {@code NioEventLoopGroup} and {@code EpollEventLoopGroup}; it
 * has no io_uring (4.1's was an incubator project, outside Netty).
 */
public final class Netty41Line implements NettyLine
{
    @Override
    public String name()
    {
        return "Netty 4.1";
    }

    @Override
    public Throwable unavailabilityCause(final NettyTransport transport)
    {
        switch (transport)
        {
            case NIO:
                return null;
            case URING:
                return new UnsupportedOperationException("io_uring needs Netty 4.2 (celer-bench-netty42)");
            default:
                return Epoll.unavailabilityCause();
        }
    }

    @Override
    public EventLoopGroup newGroup(final NettyTransport transport, final int loops, final ThreadFactory threads)
    {
        switch (transport)
        {
            case NIO:
                return new NioEventLoopGroup(loops, threads);
            case EPOLL:
                return new EpollEventLoopGroup(loops, threads);
            case EPOLL_BUSY:
                // Queued tasks still get a non-blocking epoll pass; only an idle loop busy-waits.
                final SelectStrategyFactory busy = () -> (selectNow, hasTasks) ->
                    hasTasks ? selectNow.get() : SelectStrategy.BUSY_WAIT;
                return new EpollEventLoopGroup(loops, threads, busy);
            default:
                throw new UnsupportedOperationException(transport + " needs Netty 4.2");
        }
    }

    @Override
    public Class<? extends ServerChannel> serverChannel(final NettyTransport transport)
    {
        return transport == NettyTransport.NIO ? NioServerSocketChannel.class : EpollServerSocketChannel.class;
    }

    @Override
    public Class<? extends SocketChannel> socketChannel(final NettyTransport transport)
    {
        return transport == NettyTransport.NIO ? NioSocketChannel.class : EpollSocketChannel.class;
    }

    @Override
    public Class<? extends DatagramChannel> datagramChannel(final NettyTransport transport)
    {
        return transport == NettyTransport.NIO ? NioDatagramChannel.class : EpollDatagramChannel.class;
    }
}
