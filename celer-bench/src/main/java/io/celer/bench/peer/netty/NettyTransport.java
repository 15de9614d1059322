package io.celer.bench.peer.netty;

import java.util.concurrent.ThreadFactory;

import io.celer.reactor.CpuPinning;
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
    /** {@code NioEventLoopGroup(1)}: a blocking select, Netty's default. */
    NIO,
    /** {@code EpollEventLoopGroup(1)}: native edge-triggered epoll, blocking {@code epoll_wait}. */
    EPOLL,
    /**
     * {@code EpollEventLoopGroup(1)} whose select strategy answers {@link SelectStrategy#BUSY_WAIT}: the loop
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
        // Null keeps Netty's own thread factory.
        final ThreadFactory threads = cpu < 0 ? null : task -> new FastThreadLocalThread(() ->
        {
            if (!CpuPinning.pinCurrentThread(cpu))
            {
                System.err.println("could not pin the event loop to CPU " + cpu);
            }
            task.run();
        }, "netty-loop");
        switch (this)
        {
            case NIO:
                return new NioEventLoopGroup(1, threads);
            case EPOLL:
                return new EpollEventLoopGroup(1, threads);
            default:
                // Queued tasks still get a non-blocking epoll pass; only an idle loop busy-waits.
                final SelectStrategyFactory busy = () -> (selectNow, hasTasks) ->
                    hasTasks ? selectNow.get() : SelectStrategy.BUSY_WAIT;
                return new EpollEventLoopGroup(1, threads, busy);
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
}
