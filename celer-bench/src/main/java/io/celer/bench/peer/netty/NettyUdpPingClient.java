package io.celer.bench.peer.netty;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.Markers;
import io.celer.bench.peer.PingSession;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty's UDP ping client: a datagram channel connected to the server; on each echo, a pooled direct buffer
 * with the next timestamp, written and flushed. A scheduled task sends again when an echo is overdue.
 */
public final class NettyUdpPingClient extends ChannelInboundHandlerAdapter
{
    private final PingSession session;
    private final byte[] payload;
    private final CountDownLatch done = new CountDownLatch(1);

    private NettyUdpPingClient(final PingSession session, final int size)
    {
        this.session = session;
        this.payload = new byte[size - Long.BYTES];
        Arrays.fill(payload, (byte)'x');
    }

    /**
     * Runs the client until the last echo.
     *
     * @param args {@code --transport=... --port=P --warmup=N --messages=N --size=B --histogram=FILE
     *             --progress=FILE}.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final NettyTransport transport = NettyTransport.of(child.arg("transport", "nio"));
        final PingSession session = PingSession.of(child);
        final NettyUdpPingClient ping = new NettyUdpPingClient(session, size);
        NettyTransport.connect(new Bootstrap()
            .group(transport.newGroup())
            .channel(transport.datagramChannel())
            .handler(ping), child.intArg("port", 0), "netty UDP client");
        child.await(ping.done);
        session.report(child);
        System.exit(0);
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        send(ctx, session.first());
        ctx.channel().eventLoop().scheduleAtFixedRate(() -> resendIfDue(ctx), PingSession.RESEND_CHECK_MILLIS,
            PingSession.RESEND_CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void resendIfDue(final ChannelHandlerContext ctx)
    {
        final long next = session.resendDue(System.nanoTime());
        if (next != Markers.NOTHING)
        {
            send(ctx, next);
        }
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        // A connected channel may hand over the bare content rather than a packet.
        final ByteBuf content = msg instanceof DatagramPacket ? ((DatagramPacket)msg).content() : (ByteBuf)msg;
        final long echoed = content.getLong(content.readerIndex());
        ReferenceCountUtil.release(msg);
        final long next = session.onDatagramEcho(echoed);
        if (next == Markers.DONE)
        {
            done.countDown();
        }
        else if (next != Markers.NOTHING)
        {
            send(ctx, next);
        }
    }

    private void send(final ChannelHandlerContext ctx, final long value)
    {
        final ByteBuf out = ctx.alloc().directBuffer(Long.BYTES + payload.length);
        out.writeLong(value).writeBytes(payload);
        ctx.writeAndFlush(out);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        ChildProcess.fail("netty UDP client failed", cause);
    }
}
