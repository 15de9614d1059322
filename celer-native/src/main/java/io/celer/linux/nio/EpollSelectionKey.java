package io.celer.linux.nio;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectionKey;

/**
 * A channel's registration with an {@link EpollSelector}: its interest, applied to the epoll set at once, and the
 * ready set of the last selection. The token its events carry holds the descriptor and a generation, so an
 * event of a closed channel is never taken for the next channel the kernel gives the same descriptor. A reused
 * channel's key sleeps while its socket is closed, valid but out of the selector, and wakes under a new token at
 * the channel's next registration.
 */
final class EpollSelectionKey extends AbstractSelectionKey
{
    private final EpollSelector selector;
    private final SelectableChannel channel;
    final NativeSocket socket;
    final boolean listens;
    long token;
    /** Out of the selector while its channel waits, its socket closed, for a later accept. */
    private boolean asleep;
    private volatile int interestOps;
    private int readyOps;
    /** Whether the epoll set still watches its descriptor. */
    boolean watched;

    EpollSelectionKey(final EpollSelector selector, final SelectableChannel channel, final int generation)
    {
        this.selector = selector;
        this.channel = channel;
        final EpollChannel epollChannel = (EpollChannel)channel;
        this.socket = epollChannel.nativeSocket();
        this.listens = epollChannel.listens();
        this.token = token(generation, socket.fd);
    }

    static long token(final int generation, final int fd)
    {
        return (long)generation << 32 | fd & 0xffffffffL;
    }

    /**
     * Its channel's socket closes for reuse: out of the epoll set, the table and the selected set, and attached
     * to nothing, while still valid for the channel's next registration.
     */
    void sleep()
    {
        selector.forget(this);
        selector.selected.remove(this);
        attach(null);
        asleep = true;
    }

    EpollSelector selectorImpl()
    {
        return selector;
    }

    @Override
    public SelectableChannel channel()
    {
        return channel;
    }

    @Override
    public Selector selector()
    {
        return selector;
    }

    @Override
    public int interestOps()
    {
        ensureValid();
        return interestOps;
    }

    @Override
    public SelectionKey interestOps(final int ops)
    {
        ensureValid();
        if ((ops & ~channel.validOps()) != 0)
        {
            throw new IllegalArgumentException("invalid interest set " + ops + " for " + channel);
        }
        if (asleep)
        {
            // Registered again, with its new socket: JDK's register found this key and set its interest.
            asleep = false;
            interestOps = ops;
            selector.adopt(this);
        }
        else if (ops != interestOps)
        {
            interestOps = ops;
            selector.watch(this);
        }
        return this;
    }

    /** The interest as it was at registration, before the epoll set watches it. */
    void initialInterest(final int ops)
    {
        interestOps = ops;
    }

    @Override
    public int readyOps()
    {
        ensureValid();
        return readyOps;
    }

    void readyOps(final int ops)
    {
        readyOps = ops;
    }

    private void ensureValid()
    {
        if (!isValid())
        {
            throw new CancelledKeyException();
        }
    }
}
