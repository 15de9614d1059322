package io.celer.linux.nio;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.spi.AbstractSelectionKey;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the JDK's {@code Selector} asks of every selector of this package alike: its key sets, only while open,
 * and its six selects as one, with an action or the selected set, and a timeout in milliseconds.
 */
abstract class NativeSelector extends AbstractSelector
{
    /** Closed channels and stream sockets kept for later accepts: some heap each, and no descriptor. */
    private static final int SPARES = 4096;

    /** The keys a select without an action adds to; the caller removes them. */
    final Set<SelectionKey> selected = new HashSet<>();
    private SelectionKey[] cancelledScratch = new SelectionKey[64];
    /** Accepted channels kept for reuse, as many as were closed at once, up to SPARES. */
    private final ArrayDeque<EpollSocketChannel> spares = new ArrayDeque<>();
    /** Accepted stream sockets kept for reuse, likewise: a selector keeps those of its own kind only. */
    private final ArrayDeque<NativeStream> spareStreams = new ArrayDeque<>();
    /** Listeners registered here: the only takers of its spares. */
    private int listeners;

    NativeSelector(final SelectorProvider provider)
    {
        super(provider);
    }

    /**
     * Keeps an accepted channel, its socket closed and its key asleep, for a later accept of this selector.
     *
     * @return false when this selector is closed, keeps {@value #SPARES} already, or has no listener to accept
     *         with it (a connection another reactor accepted and handed here): the channel must close.
     */
    final boolean keepSpare(final EpollSocketChannel channel)
    {
        return keep(spares, channel);
    }

    /**
     * Keeps an accepted stream socket, closed (on io_uring once the ring holds nothing of it), for a later accept
     * of this selector, on the same terms as a channel.
     */
    final boolean keepSpare(final NativeStream stream)
    {
        return keep(spareStreams, stream);
    }

    private <T> boolean keep(final ArrayDeque<T> kept, final T spare)
    {
        if (!isOpen() || spares() == SPARES || listeners == 0)
        {
            return false;
        }
        kept.addLast(spare);
        return true;
    }

    /**
     * A kept channel for an accept of a listener registered here, or null.
     */
    final EpollSocketChannel takeSpare()
    {
        return spares.pollLast();
    }

    /**
     * A kept stream socket for an accept of a listener registered here, or null.
     */
    final EpollStream takeSpareStream()
    {
        return (EpollStream)spareStreams.pollLast();
    }

    /**
     * A kept io_uring stream socket for an accept of a listener registered here, or null.
     */
    final UringStream takeSpareRingStream()
    {
        return (UringStream)spareStreams.pollLast();
    }

    /**
     * A listener came or went.
     *
     * @param change +1 or -1.
     */
    final void listeners(final int change)
    {
        listeners += change;
        if (listeners == 0)
        {
            dropSpares();
        }
    }

    /**
     * How many channels it keeps; for the tests.
     */
    final int spares()
    {
        return spares.size() + spareStreams.size();
    }

    /** The selector closes: its kept channels, whose sockets are closed, go with it. */
    final void dropSpares()
    {
        spares.clear();
        spareStreams.clear();
    }

    /**
     * Takes every cancelled key out of the JDK's set, deregistered from its channel, and hands it to this
     * selector's own clean-up; nothing is allocated.
     *
     * @param settle what this selector undoes for a key: its table entry, its watch, its pending operations.
     */
    final void removeCancelled(final Consumer<SelectionKey> settle)
    {
        final Set<SelectionKey> cancelled = cancelledKeys();
        synchronized (cancelled)
        {
            final int count = cancelled.size();
            if (count == 0)
            {
                return;
            }
            // Copied into an array kept for it: HashSet.toArray walks the table, where a loop or forEach would
            // make an iterator per close.
            if (cancelledScratch.length <= count)
            {
                cancelledScratch = new SelectionKey[count * 2];
            }
            cancelled.toArray(cancelledScratch);
            cancelled.clear();
            for (int i = 0; i < count; i++)
            {
                final SelectionKey key = cancelledScratch[i];
                cancelledScratch[i] = null;
                selected.remove(key);
                if (key.channel() != null) // an epoll stream socket is its own key, of no channel
                {
                    deregister((AbstractSelectionKey)key);
                }
                settle.accept(key);
            }
        }
    }

    /**
     * The registered keys, read-only, as {@code Selector#keys} requires.
     *
     * @return a view of them.
     */
    abstract Set<SelectionKey> registered();

    /**
     * One select.
     *
     * @param action        told of each ready key, or null to add them to the selected set.
     * @param timeoutMillis 0 to return at once, -1 to wait without bound, else the longest wait.
     * @return the keys told or whose ready set was updated.
     * @throws IOException if the kernel fails it.
     */
    abstract int doSelect(Consumer<SelectionKey> action, long timeoutMillis) throws IOException;

    @Override
    public final Set<SelectionKey> keys()
    {
        if (!isOpen())
        {
            throw new ClosedSelectorException();
        }
        return registered();
    }

    @Override
    public final Set<SelectionKey> selectedKeys()
    {
        if (!isOpen())
        {
            throw new ClosedSelectorException();
        }
        return selected;
    }

    @Override
    public final int selectNow() throws IOException
    {
        return doSelect(null, 0);
    }

    @Override
    public final int select(final long timeout) throws IOException
    {
        return doSelect(null, millis(timeout));
    }

    @Override
    public final int select() throws IOException
    {
        return doSelect(null, -1);
    }

    @Override
    public final int selectNow(final Consumer<SelectionKey> action) throws IOException
    {
        return doSelect(action, 0);
    }

    @Override
    public final int select(final Consumer<SelectionKey> action, final long timeout) throws IOException
    {
        return doSelect(action, millis(timeout));
    }

    @Override
    public final int select(final Consumer<SelectionKey> action) throws IOException
    {
        return doSelect(action, -1);
    }

    /** The JDK's timeout, where 0 waits without bound, as this package's, where -1 does. */
    private static long millis(final long timeout)
    {
        if (timeout < 0)
        {
            throw new IllegalArgumentException("negative timeout: " + timeout);
        }
        return timeout == 0 ? -1 : timeout;
    }
}
