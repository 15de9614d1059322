package io.celer.bench.peer.netty;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.FixedLengthFrameDecoder;

/**
 * Netty's throughput server: a fixed-length frame decoder and a handler that counts and releases frames.
 */
@ChannelHandler.Sharable
public final class NettySinkServer extends ChildHandler
{
    private final IoThreadProbe probe = new IoThreadProbe("server");
    private final long expected;
    private long received;
    private long firstNanos;
    private volatile String stats;

    private NettySinkServer(final long expected)
    {
        super("netty sink server");
        this.expected = expected;
    }

    /**
     * Runs the server until its client disconnects.
     *
     * @param args {@code --transport=... --size=B --messages=N --max-seconds=S}.
     * @throws InterruptedException if interrupted while binding.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final NettyTransport transport = NettyTransport.of(child.arg("transport", "nio"));
        final NettySinkServer sink = new NettySinkServer(child.intArg("messages", 1));
        transport.listen(transport.newGroup(),
            channel -> channel.pipeline().addLast(new FixedLengthFrameDecoder(size), sink));
        child.await(sink.done);
        ChildProcess.report(sink.stats == null ? "stats missing" : sink.stats);
        System.exit(0);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (received == 0)
        {
            probe.begin();
            firstNanos = System.nanoTime();
        }
        ((ByteBuf)msg).release();
        if (++received == expected)
        {
            final long nanos = System.nanoTime() - firstNanos;
            probe.end(received);
            stats = probe.statsLine(nanos);
        }
    }
}
