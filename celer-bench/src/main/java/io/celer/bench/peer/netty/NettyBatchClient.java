package io.celer.bench.peer.netty;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.ProgressFile;
import io.celer.bench.peer.ThroughputSession;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * Netty's throughput client: writes while the channel is writable, flushes, and resumes when writability
 * comes back.
 */
public final class NettyBatchClient extends ChildHandler
{
    private final ThroughputSession session;
    private long sent;

    private NettyBatchClient(final ThroughputSession session)
    {
        super("netty batch client");
        this.session = session;
    }

    /**
     * Runs the client until every message is with the kernel.
     *
     * @param args {@code --transport=... --port=P --messages=N --size=B --progress=FILE --max-seconds=S}.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final NettyTransport transport = NettyTransport.of(child.arg("transport", "nio"));
        final NettyBatchClient batch = new NettyBatchClient(new ThroughputSession(child));
        transport.connect(transport.newGroup(), child.intArg("port", 0), "netty batch client",
            channel -> channel.pipeline().addLast(batch));
        child.await(batch.done);
        batch.session.report("netty batch client");
        System.exit(0);
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        session.start();
        pump(ctx);
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        if (ctx.channel().isWritable())
        {
            pump(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void pump(final ChannelHandlerContext ctx)
    {
        // Locals for the loop: a field would be read again after every write the JIT does not inline.
        final byte[] payload = session.payload();
        final long total = session.total();
        while (sent < total && ctx.channel().isWritable())
        {
            final ByteBuf message = ctx.alloc().directBuffer(payload.length).writeBytes(payload);
            if (++sent == total)
            {
                // Done once the last message is with the kernel, like the Celer client.
                ctx.writeAndFlush(message).addListener(written -> finish(ctx));
                return;
            }
            ctx.write(message);
            if (sent % ProgressFile.EVERY == 0)
            {
                session.progress(sent);
            }
        }
        ctx.flush();
    }

    private void finish(final ChannelHandlerContext ctx)
    {
        session.finish(sent);
        ctx.close();
    }
}
