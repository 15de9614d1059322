package io.celer.bench.peer.netty;

import java.util.concurrent.ThreadFactory;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;

/**
 * What differs between the Netty lines the peers are built on (4.1 beside Vert.x in celer-bench, 4.2 in
 * celer-bench-netty42): how a transport's event loops and channels are made. The Netty peers' code is the same on
 * both; each build holds one implementation, found with {@link java.util.ServiceLoader}.
 */
public interface NettyLine
{
    /**
     * The line, for messages.
     *
     * @return such as {@code Netty 4.1}.
     */
    String name();

    /**
     * Why a transport cannot run here.
     *
     * @param transport the transport.
     * @return Netty's cause, or null when it can.
     */
    Throwable unavailabilityCause(NettyTransport transport);

    /**
     * An event loop group of a transport.
     *
     * @param transport the transport.
     * @param loops     how many event loops.
     * @param threads   makes each loop's thread, or null for Netty's own factory.
     * @return the group.
     */
    EventLoopGroup newGroup(NettyTransport transport, int loops, ThreadFactory threads);

    /**
     * The listening channel class of a transport.
     *
     * @param transport the transport.
     * @return the class.
     */
    Class<? extends ServerChannel> serverChannel(NettyTransport transport);

    /**
     * The connected channel class of a transport.
     *
     * @param transport the transport.
     * @return the class.
     */
    Class<? extends SocketChannel> socketChannel(NettyTransport transport);

    /**
     * The UDP channel class of a transport.
     *
     * @param transport the transport.
     * @return the class.
     */
    Class<? extends DatagramChannel> datagramChannel(NettyTransport transport);
}
