package io.celer.bench.peer.netty;

import java.util.concurrent.CountDownLatch;

import io.celer.bench.peer.ChildProcess;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * What every Netty TCP peer's handler does at the end: counts {@link #done} down when its channel goes
 * inactive, and fails the child process on an exception.
 */
abstract class ChildHandler extends ChannelInboundHandlerAdapter
{
    /** Counted down when the channel has gone inactive; the child's main thread waits on it. */
    final CountDownLatch done = new CountDownLatch(1);

    private final String name;

    /**
     * A handler.
     *
     * @param name the peer, for the failure message: such as {@code netty server}.
     */
    ChildHandler(final String name)
    {
        this.name = name;
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        done.countDown();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        ChildProcess.fail(name + " connection failed", cause);
    }
}
