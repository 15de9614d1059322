package io.celer.bench.ws.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.netty.NettyListener;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.bench.peer.netty.TransportOption;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Netty's WebSocket server ({@link WebSocketServerProtocolHandler}) on one event loop or {@code --loops}, each with
 * a feed of its own clients, native epoll by default: {@code /feed} pushes generated messages at {@code --rate} a second to each client, dropping what a client
 * whose channel is not writable cannot take when {@code --backpressure=on}; {@code /echo} echoes.
 */
@Command(name = "netty-ws", mixinStandardHelpOptions = true,
    description = "WebSocket peer: Netty's WebSocket codec on one event loop or several.")
public final class NettyWebSocketServer implements PeerServer
{
    private static final int MAX_FRAME = 65_536;
    private static final AttributeKey<Object> FEED_CLIENT = AttributeKey.valueOf("feed-client");

    @Mixin
    PeerOptions options = new PeerOptions();

    @Mixin
    FeedOptions feedOptions = new FeedOptions();

    @Mixin
    TransportOption transport = new TransportOption();

    private NettyListener listener;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --loops=L --rate=R --size=B --backpressure=on|off --tick-ms=T --transport=...};
     *             stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new NettyWebSocketServer(), args);
    }

    @Override
    public Serving start() throws InterruptedException
    {
        final WebSocketServerProtocolConfig config = WebSocketServerProtocolConfig.newBuilder()
            .websocketPath("/").checkStartsWith(true).maxFramePayloadLength(MAX_FRAME).build();
        final List<Feed> feeds = new ArrayList<>();
        final List<LoopProbe.Loop> loops = new ArrayList<>();
        listener = NettyListener.open(transport.name(), options, feedOptions.sendBuffer, loop ->
        {
            final Feed feed = new Feed(feedOptions);
            final Handler handler = new Handler(feed);
            loop.scheduleAtFixedRate(feed::tick, feedOptions.tickMillis, feedOptions.tickMillis,
                TimeUnit.MILLISECONDS);
            feeds.add(feed);
            loops.add(feed.probed(loop));
            return channel -> channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_FRAME),
                new WebSocketServerProtocolHandler(config), handler);
        });
        Feed.watch(feedOptions, feeds);
        return new Serving(listener.port(), new LoopProbe(loops));
    }

    @Override
    public void stop()
    {
        listener.close();
    }

    /**
     * Joins the clients of one event loop to its feed or echoes them, on that loop.
     */
    @ChannelHandler.Sharable
    private static final class Handler extends ChannelInboundHandlerAdapter
    {
        private final Feed feed;

        Handler(final Feed feed)
        {
            this.feed = feed;
        }

        @Override
        public void userEventTriggered(final ChannelHandlerContext ctx, final Object event)
        {
            if (event instanceof WebSocketServerProtocolHandler.HandshakeComplete)
            {
                final String uri = ((WebSocketServerProtocolHandler.HandshakeComplete)event).requestUri();
                if (uri.equals("/feed"))
                {
                    ctx.channel().attr(FEED_CLIENT).set(feed.add(new Sink(ctx)));
                }
                else if (!uri.equals("/echo"))
                {
                    ctx.close();
                }
            }
            ctx.fireUserEventTriggered(event);
        }

        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            if (msg instanceof WebSocketFrame && !ctx.channel().hasAttr(FEED_CLIENT))
            {
                // The frame's buffer passes to the write, which releases it.
                ctx.write(msg, ctx.voidPromise());
                return;
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(final ChannelHandlerContext ctx)
        {
            ctx.flush();
        }

        @Override
        public void channelInactive(final ChannelHandlerContext ctx)
        {
            final Object client = ctx.channel().attr(FEED_CLIENT).getAndSet(null);
            if (client != null)
            {
                feed.remove(client);
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            ctx.close();
        }
    }

    /**
     * A feed client's channel.
     */
    private static final class Sink implements Feed.Sink
    {
        private final ChannelHandlerContext ctx;
        private final Channel channel;

        Sink(final ChannelHandlerContext ctx)
        {
            this.ctx = ctx;
            this.channel = ctx.channel();
        }

        @Override
        public boolean open()
        {
            return channel.isActive();
        }

        @Override
        public boolean writable()
        {
            return channel.isWritable();
        }

        @Override
        public void send(final byte[] ascii, final int length)
        {
            final ByteBuf text = ctx.alloc().buffer(length).writeBytes(ascii, 0, length);
            ctx.write(new TextWebSocketFrame(text), ctx.voidPromise());
        }

        @Override
        public void flush()
        {
            ctx.flush();
        }
    }
}
