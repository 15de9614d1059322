package io.celer.bench.peer.netty;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.SocketChannel;

/**
 * A Netty server peer's one event loop and its listening channel on 127.0.0.1, as the HTTP and WebSocket peers
 * start and stop them.
 */
public final class NettyListener
{
    private final EventLoopGroup group;
    private final Channel channel;

    private NettyListener(final EventLoopGroup group, final Channel channel)
    {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Starts a one-thread event loop of the transport asked for, NIO when native epoll is unavailable, and listens.
     *
     * @param transport {@code nio}, {@code epoll} or {@code epoll-busy}.
     * @param cpu       the CPU the loop pins itself to, or -1.
     * @param port      the port, 0 for an ephemeral one.
     * @param pipeline  adds each accepted connection's handlers; accepted connections are {@code TCP_NODELAY}.
     * @return the listener.
     * @throws InterruptedException if interrupted while binding.
     */
    public static NettyListener open(final String transport, final int cpu, final int port,
        final Consumer<SocketChannel> pipeline) throws InterruptedException
    {
        return open(transport, cpu, port, 0, pipeline);
    }

    /**
     * As {@link #open(String, int, int, Consumer)}, with each accepted connection's kernel send buffer set.
     *
     * @param transport  {@code nio}, {@code epoll} or {@code epoll-busy}.
     * @param cpu        the CPU the loop pins itself to, or -1.
     * @param port       the port, 0 for an ephemeral one.
     * @param sendBuffer SO_SNDBUF of each accepted connection, 0 for the kernel's autotuning.
     * @param pipeline   adds each accepted connection's handlers.
     * @return the listener.
     * @throws InterruptedException if interrupted while binding.
     */
    public static NettyListener open(final String transport, final int cpu, final int port, final int sendBuffer,
        final Consumer<SocketChannel> pipeline) throws InterruptedException
    {
        NettyTransport chosen = NettyTransport.of(transport);
        if (chosen != NettyTransport.NIO && !Epoll.isAvailable())
        {
            System.err.println("epoll unavailable (" + Epoll.unavailabilityCause() + "): using NIO");
            chosen = NettyTransport.NIO;
        }
        final EventLoopGroup group = chosen.newGroup(cpu);
        final Channel channel = new ServerBootstrap()
            .group(group)
            .channel(chosen.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_SNDBUF, sendBuffer > 0 ? sendBuffer : null) // null: not set
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel accepted)
                {
                    pipeline.accept(accepted);
                }
            })
            .bind("127.0.0.1", port).sync().channel();
        return new NettyListener(group, channel);
    }

    /** @return the event loop that accepts and serves every connection. */
    public EventLoop loop()
    {
        return channel.eventLoop();
    }

    /** @return the port listened on. */
    public int port()
    {
        return ((InetSocketAddress)channel.localAddress()).getPort();
    }

    /** Stops listening and shuts the loop down. */
    public void close()
    {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
