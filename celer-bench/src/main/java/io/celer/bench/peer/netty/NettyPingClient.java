package io.celer.bench.peer.netty;

import java.util.Arrays;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.Markers;
import io.celer.bench.peer.PeerTls;
import io.celer.bench.peer.PingSession;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslProvider;

/**
 * Netty's ping client: on each echo, a pooled direct buffer with the next timestamp, written and flushed.
 */
public final class NettyPingClient extends ChildHandler
{
    private final PingSession session;
    private final byte[] payload;
    private final boolean tls;

    private NettyPingClient(final PingSession session, final int size, final boolean tls)
    {
        super("netty client");
        this.session = session;
        this.tls = tls;
        this.payload = new byte[size - Long.BYTES];
        Arrays.fill(payload, (byte)'x');
    }

    /**
     * Runs the client until the last echo.
     *
     * @param args {@code --transport=... --port=P --warmup=N --messages=N --size=B --histogram=FILE
     *             --progress=FILE}, and {@code --truststore=FILE --store-password=P} for TLS.
     * @throws javax.net.ssl.SSLException if the TLS context cannot be built.
     */
    public static void main(final String[] args) throws javax.net.ssl.SSLException
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final NettyTransport transport = NettyTransport.of(child.arg("transport", "nio"));
        final PingSession session = PingSession.of(child);
        final PeerTls tls = PeerTls.of(child);
        final SslContext ssl = tls == null ? null : SslContextBuilder.forClient().trustManager(tls.trustManagers())
            .sslProvider(SslProvider.JDK).protocols(PeerTls.PROTOCOL).build();
        final int port = child.intArg("port", 0);
        final NettyPingClient ping = new NettyPingClient(session, size, ssl != null);
        transport.connect(transport.newGroup(), port, "netty client", channel ->
        {
            if (ssl != null)
            {
                final SslHandler handler = ssl.newHandler(channel.alloc(), "127.0.0.1", port);
                // Check the certificate names the host, as Celer's client does.
                handler.engine().setSSLParameters(PeerTls.clientParameters(handler.engine().getSSLParameters()));
                channel.pipeline().addLast(handler);
            }
            channel.pipeline().addLast(new FixedLengthFrameDecoder(size), ping);
        });
        child.await(ping.done);
        if (!session.finished())
        {
            ChildProcess.fail("netty client", new IllegalStateException("connection closed before the last echo"));
        }
        session.report(child);
        System.exit(0);
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        if (!tls)
        {
            send(ctx, session.first());
        }
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event)
    {
        // Over TLS the first message waits for the handshake, so it does not count the handshake's time.
        if (event instanceof SslHandshakeCompletionEvent handshake)
        {
            if (handshake.isSuccess())
            {
                send(ctx, session.first());
            }
            else
            {
                ChildProcess.fail("netty client TLS handshake", handshake.cause());
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf frame = (ByteBuf)msg;
        final long echoed = frame.getLong(frame.readerIndex());
        frame.release();
        final long next = session.onEcho(echoed);
        if (next == Markers.DONE)
        {
            ctx.close();
            return;
        }
        send(ctx, next);
    }

    private void send(final ChannelHandlerContext ctx, final long value)
    {
        final ByteBuf out = ctx.alloc().directBuffer(Long.BYTES + payload.length);
        out.writeLong(value).writeBytes(payload);
        ctx.writeAndFlush(out);
    }
}
