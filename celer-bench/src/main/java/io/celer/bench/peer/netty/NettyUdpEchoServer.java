package io.celer.bench.peer.netty;

import java.net.InetSocketAddress;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.EchoSession;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;

/**
 * Netty's UDP echo server, as its examples write one: a datagram channel on one event loop thread, each
 * packet's content written back to its sender in a new {@link DatagramPacket}.
 */
public final class NettyUdpEchoServer extends ChannelInboundHandlerAdapter
{
    private final EchoSession session;

    private NettyUdpEchoServer(final int dropEvery)
    {
        this.session = new EchoSession(dropEvery);
    }

    /**
     * Runs the server until a second after the client's end marker.
     *
     * @param args {@code --transport=nio|epoll|epoll-busy --size=B --max-seconds=S}, and {@code --drop-every=N}
     *             to test the client's resending.
     * @throws InterruptedException if interrupted while binding.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final ChildProcess child = ChildProcess.start(args);
        final NettyTransport transport = NettyTransport.of(child.arg("transport", "nio"));
        final NettyUdpEchoServer echo = new NettyUdpEchoServer(child.intArg("drop-every", 0));
        final Channel channel = new Bootstrap()
            .group(transport.newGroup())
            .channel(transport.datagramChannel())
            .handler(echo)
            .bind("127.0.0.1", 0).sync().channel();
        ChildProcess.listening(((InetSocketAddress)channel.localAddress()).getPort());
        echo.session.awaitEndAndLinger(child);
        // A busy-waiting loop may not notice a shutdown request from another thread: just leave.
        System.exit(0);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final DatagramPacket packet = (DatagramPacket)msg;
        final ByteBuf content = packet.content();
        if (!session.onMessage(content.getLong(content.readerIndex())))
        {
            packet.release();
            return;
        }
        // The content changes hands: the outbound packet releases it once written.
        ctx.writeAndFlush(new DatagramPacket(content, packet.sender()));
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        ChildProcess.fail("netty UDP server failed", cause);
    }
}
