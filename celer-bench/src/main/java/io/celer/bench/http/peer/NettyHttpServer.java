package io.celer.bench.http.peer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.celer.bench.peer.netty.NettyListener;
import io.celer.bench.peer.netty.TransportOption;
import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.examples.http.TimeBlockPage;

/**
 * Netty's HTTP codec as TechEmpower's Netty entry uses it: one event loop or {@code --loops} (native epoll by
 * default), {@link HttpServerCodec}, a pre-built {@code /plaintext} response duplicated per request (its Date
 * remade each second on each loop), {@code /json} serialized per request by Jackson's {@link ObjectMapper} from a
 * message object, Server, Date and Content-Length on every response, keep-alive, one flush per read. Also
 * {@code /gettimeblock}, closing after it.
 */
@Command(name = "netty-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: Netty's HttpServerCodec on one event loop or several.")
public final class NettyHttpServer implements PeerServer
{
    private static final AsciiString SERVER = AsciiString.cached("Netty");
    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    private static final AsciiString TEXT_HTML = AsciiString.cached("text/html");
    private static final AsciiString PAGE_LENGTH = AsciiString.cached(Integer.toString(TimeBlockPage.LENGTH));
    private static final ByteBuf HELLO = Unpooled.unreleasableBuffer(
        Unpooled.directBuffer().writeBytes("Hello, World!".getBytes(StandardCharsets.US_ASCII)));
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Mixin
    PeerOptions options = new PeerOptions();

    @Mixin
    TransportOption transport = new TransportOption();

    private NettyListener listener;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --loops=L --transport=nio|epoll|epoll-busy|uring}; stdin takes {@code begin},
     *             {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new NettyHttpServer(), args);
    }

    @Override
    public Serving start() throws InterruptedException
    {
        final List<LoopProbe.Loop> loops = new ArrayList<>();
        listener = NettyListener.open(transport.name(), options, 0, loop ->
        {
            // A handler per loop: its response, page and count are only ever touched by that loop's thread.
            final Handler handler = new Handler();
            loop.submit(handler::remakeResponse).syncUninterruptibly();
            loop.scheduleAtFixedRate(handler::remakeResponse, 1, 1, TimeUnit.SECONDS);
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
        private final byte[] page = new byte[TimeBlockPage.LENGTH];
        private FullHttpResponse plaintext;
        private AsciiString date;
        long requests;

        void remakeResponse()
        {
            date = new AsciiString(HttpDate.now());
            plaintext = ok(HELLO.duplicate(), TEXT_PLAIN, HELLO.readableBytes());
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
            final String uri = request.uri();
            final int query = uri.indexOf('?');
            final int end = query < 0 ? uri.length() : query;
            final boolean keepAlive = HttpUtil.isKeepAlive(request);
            if (end == 10 && uri.startsWith("/plaintext"))
            {
                writeKeptAlive(ctx, request, plaintext.retainedDuplicate(), keepAlive);
            }
            else if (end == 5 && uri.startsWith("/json"))
            {
                final byte[] body = json();
                writeKeptAlive(ctx, request, ok(Unpooled.wrappedBuffer(body), APPLICATION_JSON, body.length),
                    keepAlive);
            }
            else if (end == 13 && uri.startsWith("/gettimeblock"))
            {
                TimeBlockPage.write(page, 0);
                final FullHttpResponse response =
                    ok(ctx.alloc().buffer(page.length).writeBytes(page), TEXT_HTML, PAGE_LENGTH);
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                write(ctx, response, false);
            }
            else
            {
                final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER, false);
                final HttpHeaders headers = response.headers();
                headers.set(HttpHeaderNames.SERVER, SERVER).set(HttpHeaderNames.DATE, date)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
                HttpUtil.setKeepAlive(headers, request.protocolVersion(), keepAlive);
                write(ctx, response, keepAlive);
            }
        }

        private FullHttpResponse ok(final ByteBuf body, final AsciiString type, final Object length)
        {
            final FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body, false);
            response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, type)
                .set(HttpHeaderNames.SERVER, SERVER)
                .set(HttpHeaderNames.DATE, date)
                .set(HttpHeaderNames.CONTENT_LENGTH, length);
            return response;
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

        private static void writeKeptAlive(final ChannelHandlerContext ctx, final HttpRequest request,
            final FullHttpResponse response, final boolean keepAlive)
        {
            // HTTP/1.1 keep-alive needs no Connection header: only the other cases pay for setting one.
            if (!keepAlive || request.protocolVersion() == HttpVersion.HTTP_1_0)
            {
                HttpUtil.setKeepAlive(response.headers(), request.protocolVersion(), keepAlive);
            }
            write(ctx, response, keepAlive);
        }

        private static void write(final ChannelHandlerContext ctx, final FullHttpResponse response,
            final boolean keepAlive)
        {
            if (keepAlive)
            {
                ctx.write(response, ctx.voidPromise());
            }
            else
            {
                ctx.write(response).addListener(ChannelFutureListener.CLOSE);
            }
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
