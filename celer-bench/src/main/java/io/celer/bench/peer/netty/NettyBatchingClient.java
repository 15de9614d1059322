package io.celer.bench.peer.netty;

import java.util.function.Consumer;

import io.celer.bench.peer.BatchingSession;
import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.MessageRing;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;

/**
 * Netty's client of the batching benchmark: the same producers and ring as Celer's, drained by a task on the
 * event loop that queues itself again after each drain. Each message goes into a pooled direct buffer behind
 * its length, then either {@code write} each and one {@code flush} per drained batch, or {@code writeAndFlush}
 * each.
 *
 * <p>A drain takes only what fits below the channel's high water mark (at least one message per producer);
 * an unwritable channel stops the draining until {@link #channelWritabilityChanged}, while the producers wait on
 * the full ring.
 */
public final class NettyBatchingClient extends ChildHandler implements Runnable
{
    private final BatchingSession session;
    private final MessageRing ring;
    private final boolean flushEach;
    private final Consumer<MessageRing.Message> writer = this::write;
    private ChannelHandlerContext ctx;
    private boolean paused;

    private NettyBatchingClient(final BatchingSession session, final boolean flushEach)
    {
        super("netty batching client");
        this.session = session;
        this.ring = session.ring();
        this.flushEach = flushEach;
    }

    /**
     * Runs the client until every message is flushed.
     *
     * @param args {@code --transport=nio|epoll --port=P --producers=P --warmup=N --messages=N --size=B
     *             --flush=batch|message --cpu=N --sndbuf=BYTES --progress=FILE --max-seconds=S}.
     * @throws InterruptedException if interrupted while waiting for the producers.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final ChildProcess child = ChildProcess.start(args);
        final NettyTransport transport = NettyTransport.of(child.arg("transport", "nio"));
        final NettyBatchingClient client = new NettyBatchingClient(new BatchingSession(child),
            "message".equals(child.arg("flush", "batch")));
        NettyTransport.connect(new Bootstrap()
            .group(transport.newGroup(child.intArg("cpu", -1)))
            .channel(transport.socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_SNDBUF, child.intArg("sndbuf", 4 * 1024 * 1024))
            .handler(client), child.intArg("port", 0), "netty batching client");
        child.await(client.done);
        final String stats = client.session.statsLine();
        if (stats == null)
        {
            ChildProcess.fail("netty batching client", new IllegalStateException("closed before flushing all"));
        }
        ChildProcess.report(stats);
        System.exit(0);
    }

    @Override
    public void channelActive(final ChannelHandlerContext active)
    {
        ctx = active;
        session.start();
        active.channel().eventLoop().execute(this);
    }

    /**
     * One drain, run by the event loop until every message is written or the channel turns unwritable.
     */
    @Override
    public void run()
    {
        final Channel channel = ctx.channel();
        if (!channel.isActive())
        {
            return;
        }
        if (!channel.isWritable())
        {
            // Over the high water mark: channelWritabilityChanged resumes once the socket drains below the low.
            paused = true;
            session.paused();
            ctx.flush();
            return;
        }
        // At least one each while writable: Netty takes it over the mark and turns unwritable, which is what
        // brings the writability event that resumes the draining.
        final int limit = Math.max(1, session.drainLimit(channel.bytesBeforeUnwritable()));
        if (ring.drain(writer, limit) > 0)
        {
            session.drained();
            if (!flushEach)
            {
                ctx.flush();
            }
        }
        if (session.allWritten())
        {
            // Its promise completes once everything written before it is with the kernel.
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed ->
            {
                session.finished();
                ctx.close();
            });
            return;
        }
        channel.eventLoop().execute(this);
    }

    private void write(final MessageRing.Message message)
    {
        final ByteBuf frame = ctx.alloc().directBuffer(BatchingSession.PREFIX + message.length);
        frame.writeInt(message.length).writeBytes(message.bytes, 0, message.length);
        if (flushEach)
        {
            ctx.writeAndFlush(frame, ctx.voidPromise());
        }
        else
        {
            ctx.write(frame, ctx.voidPromise());
        }
        session.written();
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext changed)
    {
        if (paused && changed.channel().isWritable())
        {
            paused = false;
            run();
        }
        changed.fireChannelWritabilityChanged();
    }
}
