package io.celer.bench.peer.netty;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.EchoSession;
import io.celer.bench.peer.PeerTls;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * Netty's echo server, as its user guide would write it: one event loop thread, a fixed-length frame
 * decoder, each frame written back; default settings plus TCP_NODELAY.
 */
@ChannelHandler.Sharable
public final class NettyEchoServer extends ChildHandler
{
    private final EchoSession session = new EchoSession();

    private NettyEchoServer()
    {
        super("netty server");
    }

    /**
     * Runs the server until its client disconnects.
     *
     * @param args {@code --transport=nio|epoll|epoll-busy|uring --size=B --max-seconds=S}, and
     *             {@code --keystore=FILE --store-password=P} for TLS.
     * @throws InterruptedException if interrupted while binding.
     * @throws javax.net.ssl.SSLException if the TLS context cannot be built.
     */
    public static void main(final String[] args) throws InterruptedException, javax.net.ssl.SSLException
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final NettyTransport transport = NettyTransport.of(child.arg("transport", "nio"));
        final NettyEchoServer echo = new NettyEchoServer();
        final PeerTls tls = PeerTls.of(child);
        // The JDK's SSLEngine, as Celer uses: the comparison is of the I/O around it, not of TLS libraries.
        final SslContext ssl = tls == null ? null : SslContextBuilder.forServer(tls.keyManagers())
            .sslProvider(SslProvider.JDK).protocols(PeerTls.PROTOCOL).build();
        final EventLoopGroup group = transport.newGroup();
        transport.listen(group, channel ->
        {
            if (ssl != null)
            {
                channel.pipeline().addLast(ssl.newHandler(channel.alloc()));
            }
            channel.pipeline().addLast(new FixedLengthFrameDecoder(size), echo);
        });
        child.await(echo.done);
        ChildProcess.report(echo.session.stats() == null ? "stats missing" : echo.session.stats());
        // A busy-waiting loop may not notice a shutdown request from another thread: just leave.
        System.exit(0);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf frame = (ByteBuf)msg;
        session.onMessage(frame.getLong(frame.readerIndex()));
        ctx.writeAndFlush(frame);
    }
}
