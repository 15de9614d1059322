package io.celer.bench.peer.netty;

import java.util.Arrays;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.celer.bench.peer.ProgressFile;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * Netty's throughput client: writes while the channel is writable, flushes, and resumes when writability
 * comes back.
 */
public final class NettyBatchClient extends ChildHandler
{
    private final IoThreadProbe probe = new IoThreadProbe("client");
    private final byte[] payload;
    private final long total;
    private final ProgressFile progress;
    private long sent;
    private long startNanos;
    private volatile String stats;

    private NettyBatchClient(final int size, final long total, final ProgressFile progress)
    {
        super("netty batch client");
        this.payload = new byte[size];
        Arrays.fill(payload, (byte)'x');
        this.total = total;
        this.progress = progress;
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
        final NettyBatchClient batch = new NettyBatchClient(child.intArg("size", 256), child.intArg("messages", 1),
            ProgressFile.open(child.pathArg("progress")));
        transport.connect(transport.newGroup(), child.intArg("port", 0), "netty batch client",
            channel -> channel.pipeline().addLast(batch));
        child.await(batch.done);
        if (batch.stats == null)
        {
            ChildProcess.fail("netty batch client", new IllegalStateException("closed before sending everything"));
        }
        ChildProcess.report(batch.stats);
        System.exit(0);
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        probe.begin();
        startNanos = System.nanoTime();
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
                progress.set(sent);
            }
        }
        ctx.flush();
    }

    private void finish(final ChannelHandlerContext ctx)
    {
        final long nanos = System.nanoTime() - startNanos;
        probe.end(sent);
        progress.set(sent);
        stats = probe.statsLine(nanos);
        ctx.close();
    }
}
