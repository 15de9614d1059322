package io.celer.bench.peer.netty;

import java.net.InetSocketAddress;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

import io.celer.bench.peer.ChildProcess;
import io.celer.reactor.internal.CpuPinning;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.ServerChannel;
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
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * The Netty transports compared: NIO, native epoll, and native epoll with a busy-polling event loop; for TCP
 * and UDP.
 */
public enum NettyTransport
{
    /** {@code NioEventLoopGroup(N)}: a blocking select, Netty's default. */
    NIO,
    /** {@code EpollEventLoopGroup(N)}: native edge-triggered epoll, blocking {@code epoll_wait}. */
    EPOLL,
    /**
     * {@code EpollEventLoopGroup(N)} whose select strategy answers {@link SelectStrategy#BUSY_WAIT}: the loop
     * spins on {@code epoll_wait} with a zero timeout instead of sleeping in it.
     */
    EPOLL_BUSY;

    /**
     * Parses the name used on the command line.
     *
     * @param name {@code nio}, {@code epoll} or {@code epoll-busy}.
     * @return the transport.
     */
    public static NettyTransport of(final String name)
    {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
    }

    /**
     * A one-thread event loop group of this transport.
     *
     * @return the group.
     */
    public EventLoopGroup newGroup()
    {
        return newGroup(-1);
    }

    /**
     * A one-thread event loop group of this transport whose thread pins itself to a CPU.
     *
     * @param cpu the CPU, or -1 to leave the thread to the scheduler.
     * @return the group.
     */
    public EventLoopGroup newGroup(final int cpu)
    {
        return newGroup(1, loop -> cpu);
    }

    /**
     * An event loop group of this transport whose threads each pin themselves to a CPU.
     *
     * @param loops how many event loops.
     * @param cpus  the CPU of each loop by index, from 0; -1 leaves that loop's thread to the scheduler.
     * @return the group.
     */
    public EventLoopGroup newGroup(final int loops, final IntUnaryOperator cpus)
    {
        boolean pinned = false;
        for (int i = 0; i < loops; i++)
        {
            pinned |= cpus.applyAsInt(i) >= 0;
        }
        final AtomicInteger started = new AtomicInteger();
        // Null keeps Netty's own thread factory. Netty makes each loop's thread when the loop first runs: number
        // them as they come.
        final ThreadFactory threads = !pinned ? null : task ->
        {
            final int index = started.getAndIncrement();
            final int cpu = cpus.applyAsInt(index);
            return new FastThreadLocalThread(() ->
            {
                if (cpu >= 0 && !CpuPinning.pinCurrentThread(cpu))
                {
                    System.err.println("could not pin the event loop to CPU " + cpu);
                }
                task.run();
            }, loops == 1 ? "netty-loop" : "netty-loop-" + index);
        };
        switch (this)
        {
            case NIO:
                return new NioEventLoopGroup(loops, threads);
            case EPOLL:
                return new EpollEventLoopGroup(loops, threads);
            default:
                // Queued tasks still get a non-blocking epoll pass; only an idle loop busy-waits.
                final SelectStrategyFactory busy = () -> (selectNow, hasTasks) ->
                    hasTasks ? selectNow.get() : SelectStrategy.BUSY_WAIT;
                return new EpollEventLoopGroup(loops, threads, busy);
        }
    }

    /**
     * The listening channel class.
     *
     * @return the class.
     */
    public Class<? extends ServerChannel> serverChannel()
    {
        return this == NIO ? NioServerSocketChannel.class : EpollServerSocketChannel.class;
    }

    /**
     * The connected channel class.
     *
     * @return the class.
     */
    public Class<? extends SocketChannel> socketChannel()
    {
        return this == NIO ? NioSocketChannel.class : EpollSocketChannel.class;
    }

    /**
     * The UDP channel class.
     *
     * @return the class.
     */
    public Class<? extends DatagramChannel> datagramChannel()
    {
        return this == NIO ? NioDatagramChannel.class : EpollDatagramChannel.class;
    }

    /**
     * Opens a TCP connection, {@code TCP_NODELAY} set, to the harness's server; fails the child if it cannot.
     *
     * @param group    the event loop.
     * @param port     the server's port on 127.0.0.1.
     * @param name     the client, for the failure message.
     * @param pipeline adds the connection's handlers.
     */
    public void connect(final EventLoopGroup group, final int port, final String name,
        final Consumer<SocketChannel> pipeline)
    {
        connect(new Bootstrap()
            .group(group)
            .channel(socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(initializer(pipeline)), port, name);
    }

    /**
     * Connects a client, TCP or UDP, to the harness's server; fails the child if it cannot.
     *
     * @param bootstrap the client, ready but for where it connects to.
     * @param port      the server's port on 127.0.0.1.
     * @param name      the client, for the failure message.
     */
    public static void connect(final Bootstrap bootstrap, final int port, final String name)
    {
        bootstrap.connect("127.0.0.1", port).addListener(connected ->
        {
            if (!connected.isSuccess())
            {
                ChildProcess.fail(name + " connect", connected.cause());
            }
        });
    }

    /**
     * Listens on an ephemeral port of 127.0.0.1, accepted connections {@code TCP_NODELAY}, and tells the harness
     * the port.
     *
     * @param group    the event loop, which accepts and serves.
     * @param pipeline adds each accepted connection's handlers.
     * @throws InterruptedException if interrupted while binding.
     */
    public void listen(final EventLoopGroup group, final Consumer<SocketChannel> pipeline) throws InterruptedException
    {
        final Channel listener = new ServerBootstrap()
            .group(group)
            .channel(serverChannel())
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(initializer(pipeline))
            .bind("127.0.0.1", 0).sync().channel();
        ChildProcess.listening(((InetSocketAddress)listener.localAddress()).getPort());
    }

    private static ChannelInitializer<SocketChannel> initializer(final Consumer<SocketChannel> pipeline)
    {
        return new ChannelInitializer<>()
        {
            @Override
            protected void initChannel(final SocketChannel channel)
            {
                pipeline.accept(channel);
            }
        };
    }
}
