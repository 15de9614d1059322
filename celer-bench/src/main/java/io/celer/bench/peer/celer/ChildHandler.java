package io.celer.bench.peer.celer;

import java.util.concurrent.CountDownLatch;

import io.celer.bench.peer.ChildProcess;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * What every Celer TCP peer's handler does at the end: counts {@link #done} down when its connection closes, and
 * fails the child process on a connection error.
 */
abstract class ChildHandler implements Handler
{
    /** Counted down when the connection has closed; the child's main thread waits on it. */
    final CountDownLatch done = new CountDownLatch(1);

    private final String name;

    /**
     * A handler.
     *
     * @param name the peer, for the failure message: such as {@code celer server}.
     */
    ChildHandler(final String name)
    {
        this.name = name;
    }

    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        done.countDown();
    }

    @Override
    public void error(final Connection connection, final Throwable error)
    {
        ChildProcess.fail(name + " connection failed", error);
    }
}
