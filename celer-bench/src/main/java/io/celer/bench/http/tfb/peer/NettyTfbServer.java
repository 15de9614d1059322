package io.celer.bench.http.tfb.peer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.celer.bench.http.peer.HttpDate;
import io.celer.bench.peer.netty.NettyListener;
import io.celer.bench.peer.netty.TransportOption;
import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;

/**
 * Netty as TechEmpower's Netty entry serves {@code /plaintext} and {@code /json}: native epoll event loops,
 * {@link HttpServerCodec}, a handler that writes each pipelined request's response and flushes once per read batch
 * ({@code channelReadComplete}); the plaintext body a shared unreleasable buffer, the JSON body serialized per
 * request by Jackson's {@link ObjectMapper} from a message object; {@code Server} and {@code Date} (remade each
 * second on each loop) and Content-Length on every response.
 */
@Command(name = "netty-tfb", mixinStandardHelpOptions = true,
    description = "TechEmpower peer: Netty's HttpServerCodec answering /plaintext and /json.")
public final class NettyTfbServer implements PeerServer
{
    private static final AsciiString SERVER = AsciiString.cached("Netty");
    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    private static final ByteBuf HELLO = Unpooled.unreleasableBuffer(
        Unpooled.directBuffer().writeBytes("Hello, World!".getBytes(StandardCharsets.US_ASCII)));
    private static final AsciiString HELLO_LENGTH = AsciiString.cached(Integer.toString(HELLO.readableBytes()));
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Mixin
    PeerOptions options = new PeerOptions();

    @Mixin
    TransportOption transport = new TransportOption();

    private NettyListener listener;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --loops=L --transport=nio|epoll|epoll-busy}; stdin takes {@code begin},
     *             {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new NettyTfbServer(), args);
    }

    @Override
    public Serving start() throws InterruptedException
    {
        final List<LoopProbe.Loop> loops = new ArrayList<>();
        listener = NettyListener.open(transport.name(), options, 0, loop ->
        {
            final Handler handler = new Handler();
            loop.submit(handler::remakeDate).syncUninterruptibly();
            loop.scheduleAtFixedRate(handler::remakeDate, 1, 1, TimeUnit.SECONDS);
            loops.add(new LoopProbe.Loop(loop, () -> handler.requests));
            return channel -> channel.pipeline().addLast(new HttpServerCodec(), handler);
        });
        return new Serving(listener.port(), new LoopProbe(loops));
    }

    @Override
    public void stop()
    {
        listener.close();
    }

    /**
     * The JSON test's object, serialized by Jackson through its getter.
     */
    public static final class Message
    {
        private final String message;

        /**
         * A message.
         *
         * @param message its text.
         */
        public Message(final String message)
        {
            this.message = message;
        }

        /** @return its text. */
        public String getMessage()
        {
            return message;
        }
    }

    /**
     * Answers the requests of every connection of one event loop, on that loop.
     */
    @ChannelHandler.Sharable
    private static final class Handler extends ChannelInboundHandlerAdapter
    {
        private AsciiString date;
        long requests;

        void remakeDate()
        {
            date = new AsciiString(HttpDate.now());
        }

        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            try
            {
                if (msg instanceof HttpRequest)
                {
                    requests++;
                    answer(ctx, (HttpRequest)msg);
                }
            }
            finally
            {
                ReferenceCountUtil.release(msg);
            }
        }

        private void answer(final ChannelHandlerContext ctx, final HttpRequest request)
        {
            switch (request.uri())
            {
                case "/plaintext" -> write(ctx, HELLO.duplicate(), TEXT_PLAIN, HELLO_LENGTH);
                case "/json" ->
                {
                    final byte[] body = json();
                    write(ctx, Unpooled.wrappedBuffer(body), APPLICATION_JSON, body.length);
                }
                default ->
                {
                    final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER, false);
                    response.headers().set(HttpHeaderNames.SERVER, SERVER).set(HttpHeaderNames.DATE, date)
                        .setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
                    ctx.write(response, ctx.voidPromise());
                }
            }
        }

        private static byte[] json()
        {
            try
            {
                return MAPPER.writeValueAsBytes(new Message("Hello, World!"));
            }
            catch (final JsonProcessingException ex)
            {
                throw new IllegalStateException(ex);
            }
        }

        private void write(final ChannelHandlerContext ctx, final ByteBuf body, final AsciiString type,
            final Object length)
        {
            final FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body, false);
            final HttpHeaders headers = response.headers();
            headers.set(HttpHeaderNames.CONTENT_TYPE, type)
                .set(HttpHeaderNames.SERVER, SERVER)
                .set(HttpHeaderNames.DATE, date)
                .set(HttpHeaderNames.CONTENT_LENGTH, length);
            ctx.write(response, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(final ChannelHandlerContext ctx)
        {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            // Clients resetting at the end of a run are normal: drop the connection, keep serving.
            ctx.close();
        }
    }
}
