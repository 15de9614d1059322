package io.celer.bench.peer.netty;

import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.EventExecutor;

import io.celer.bench.peer.server.PeerOptions;

/**
 * A Netty server peer's event loops and its listening channel on 127.0.0.1, as the HTTP and WebSocket peers
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
     * Starts the event loops of the transport asked for, NIO when native epoll is unavailable, and listens; each
     * accepted connection goes to the next loop in turn. An unavailable io_uring fails: a peer named for it runs on
     * it or not at all.
     *
     * @param transport  {@code nio}, {@code epoll}, {@code epoll-busy} or {@code uring}.
     * @param options    the port, the loops and their CPUs.
     * @param sendBuffer SO_SNDBUF of each accepted connection, 0 for the kernel's autotuning.
     * @param perLoop    called once per loop before listening: sets up what the loop's connections share (its
     *                   timers, its counts) and gives what adds each of its accepted connections' handlers;
     *                   accepted connections are {@code TCP_NODELAY}.
     * @return the listener.
     * @throws InterruptedException if interrupted while binding.
     */
    public static NettyListener open(final String transport, final PeerOptions options, final int sendBuffer,
        final Function<EventLoop, Consumer<SocketChannel>> perLoop) throws InterruptedException
    {
        NettyTransport chosen = NettyTransport.of(transport);
        final Throwable unavailable = chosen.unavailabilityCause();
        if (unavailable != null && chosen == NettyTransport.URING)
        {
            throw new IllegalStateException("io_uring unavailable", unavailable);
        }
        if (unavailable != null)
        {
            System.err.println("epoll unavailable (" + unavailable + "): using NIO");
            chosen = NettyTransport.NIO;
        }
        final EventLoopGroup group = chosen.newGroup(options.loops(), options::cpuOf);
        // Filled before the bind, read only after: each connection finds its loop's handlers.
        final Map<EventExecutor, Consumer<SocketChannel>> pipelines = new IdentityHashMap<>();
        for (final EventExecutor loop : group)
        {
            pipelines.put(loop, perLoop.apply((EventLoop)loop));
        }
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
                    pipelines.get(accepted.eventLoop()).accept(accepted);
                }
            })
            .bind("127.0.0.1", options.port()).sync().channel();
        return new NettyListener(group, channel);
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
