package io.celer.bench.peer.netty;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.ServiceLoader;
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
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * The Netty transports compared: NIO, native epoll, native epoll with a busy-polling event loop, and on Netty 4.2
 * native io_uring; for TCP and UDP. The {@link NettyLine} on the class path makes their event loops and channels.
 */
public enum NettyTransport
{
    /** A NIO event loop: a blocking select, Netty's default. */
    NIO,
    /** A native epoll event loop: edge-triggered, blocking {@code epoll_wait}. */
    EPOLL,
    /**
     * A native epoll event loop whose select strategy answers {@code SelectStrategy.BUSY_WAIT}: the loop spins on
     * {@code epoll_wait} with a zero timeout instead of sleeping in it.
     */
    EPOLL_BUSY,
    /** A native io_uring event loop (Netty 4.2 only): completions, blocking in {@code io_uring_enter}. */
    URING;

    private static final NettyLine LINE = ServiceLoader.load(NettyLine.class).findFirst()
        .orElseThrow(() -> new IllegalStateException("no NettyLine on the class path"));

    /**
     * Parses the name used on the command line.
     *
     * @param name {@code nio}, {@code epoll}, {@code epoll-busy} or {@code uring}.
     * @return the transport.
     */
    public static NettyTransport of(final String name)
    {
        return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /**
     * The Netty line on the class path.
     *
     * @return such as {@code Netty 4.1}.
     */
    public static String line()
    {
        return LINE.name();
    }

    /**
     * Why it cannot run here, as Netty says.
     *
     * @return the cause, or null when it can.
     */
    public Throwable unavailabilityCause()
    {
        return LINE.unavailabilityCause(this);
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
        return LINE.newGroup(this, loops, threads);
    }

    /**
     * The listening channel class.
     *
     * @return the class.
     */
    public Class<? extends ServerChannel> serverChannel()
    {
        return LINE.serverChannel(this);
    }

    /**
     * The connected channel class.
     *
     * @return the class.
     */
    public Class<? extends SocketChannel> socketChannel()
    {
        return LINE.socketChannel(this);
    }

    /**
     * The UDP channel class.
     *
     * @return the class.
     */
    public Class<? extends DatagramChannel> datagramChannel()
    {
        return LINE.datagramChannel(this);
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
