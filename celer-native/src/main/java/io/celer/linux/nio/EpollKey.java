package io.celer.linux.nio;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectionKey;

/**
 * A registration with an {@link EpollSelector}: its interest, applied to the epoll set at once, and the ready set
 * of the last selection. The token its events carry holds the descriptor and a generation, so an event of a
 * closed socket is never taken for the next socket the kernel gives the same descriptor. A reused socket's key
 * sleeps while its socket is closed, valid but out of the selector, and wakes under a new token at its next
 * registration. Either a channel's key ({@link EpollSelectionKey}) or a socket that is its own ({@link
 * EpollStream}).
 */
abstract class EpollKey extends AbstractSelectionKey
{
    /** Set at registration: a stream accepted on one reactor may be registered with another's selector. */
    EpollSelector selector;
    long token;
    /** Out of the selector while its socket is closed, waiting for a later accept. */
    boolean asleep;
    private volatile int interestOps;
    private int readyOps;
    /** Whether the epoll set still watches its descriptor. */
    boolean watched;

    static long token(final int generation, final int fd)
    {
        return (long)generation << 32 | fd & 0xffffffffL;
    }

    /**
     * Its descriptor.
     *
     * @return the descriptor now.
     */
    abstract int fd();

    /**
     * Whether it accepts connections rather than carrying one.
     *
     * @return true for a listener.
     */
    abstract boolean listens();

    /**
     * The operations its socket supports.
     *
     * @return the valid interest bits.
     */
    abstract int validOps();

    /** The selector took it into its table. */
    void entered()
    {
    }

    /** The selector let it go: out of its table and its epoll set. */
    void forgotten()
    {
    }

    /**
     * Its socket closes for reuse: out of the epoll set, the table and the selected set, and attached to nothing,
     * while still valid for its next registration.
     */
    final void sleep()
    {
        selector.forget(this);
        selector.selected.remove(this);
        attach(null);
        asleep = true;
    }

    @Override
    public final Selector selector()
    {
        return selector;
    }

    @Override
    public final int interestOps()
    {
        ensureValid();
        return interestOps;
    }

    @Override
    public final SelectionKey interestOps(final int ops)
    {
        ensureValid();
        checkInterest(ops);
        if (asleep)
        {
            // Registered again, with its new socket: the JDK's register found this key and set its interest.
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

    /** Refuses an interest its socket does not support. */
    final void checkInterest(final int ops)
    {
        if ((ops & ~validOps()) != 0)
        {
            throw new IllegalArgumentException("invalid interest set " + ops + " for " + this);
        }
    }

    /** The interest as it was at registration, before the epoll set watches it. */
    final void initialInterest(final int ops)
    {
        interestOps = ops;
    }

    @Override
    public final int readyOps()
    {
        ensureValid();
        return readyOps;
    }

    final void readyOps(final int ops)
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
