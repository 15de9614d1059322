package io.celer.reactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.Consumer;
import io.celer.reactor.internal.Selectable;
import io.celer.reactor.internal.Logs;

/**
 * A reactor's selector: registers channels, hands ready keys to their owners without allocating, and closes
 * the channels of cancelled keys when asked rather than only at the next select.
 */
final class ReadyKeys
{
    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());

    private static final Consumer<SelectionKey> IGNORE = key -> { };

    private final Selector selector;
    private final Consumer<SelectionKey> dispatch = this::dispatch;
    private final Consumer<SelectionKey> dispatchAfterWait = this::dispatchAfterWait;
    private final LongestDispatch dispatches;
    private final Runnable onWake;
    private boolean woken;
    private boolean selecting;
    private boolean releaseAfterSelect;

    /**
     * @param onWake runs once when a wait ends, before any owner runs.
     */
    ReadyKeys(
        final java.nio.channels.spi.SelectorProvider provider, final LongestDispatch dispatches, final Runnable onWake)
    {
        this.dispatches = dispatches;
        this.onWake = onWake;
        SelectionBoxes.warnIfUncached();
        try
        {
            selector = provider.openSelector();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a selector", ex);
        }
    }

    SelectionKey register(final SelectableChannel channel, final int ops, final Selectable owner)
        throws ClosedChannelException
    {
        return channel.register(selector, ops, owner);
    }

    SelectionKey register(final StreamSocket socket, final int ops, final Selectable owner)
        throws ClosedChannelException
    {
        return socket.register(selector, ops, owner);
    }

    /**
     * Waits until a channel is ready, the timeout passes or {@link #wakeup()} is called, then hands what is ready
     * to the owners in the same call; the wake-up action runs first, once, whether or not anything is ready.
     *
     * @param timeoutMillis the longest wait, at least 1, or 0 for no limit.
     * @return the keys handed over.
     */
    int awaitThenSelect(final long timeoutMillis) throws IOException
    {
        woken = false;
        selecting = true;
        final int work;
        try
        {
            work = selector.select(dispatchAfterWait, timeoutMillis);
        }
        finally
        {
            selecting = false;
            wakeOnce();
        }
        return work + releaseAfterSelect();
    }

    /**
     * Ends an {@link #awaitThenSelect} now, or the next one at once; from any thread.
     */
    void wakeup()
    {
        selector.wakeup();
    }

    int select() throws IOException
    {
        selecting = true;
        final int work = selector.selectNow(dispatch);
        selecting = false;
        return work + releaseAfterSelect();
    }

    /** The select a {@link #releaseCancelled} during a select asked for, once that select has returned. */
    private int releaseAfterSelect() throws IOException
    {
        if (!releaseAfterSelect)
        {
            return 0;
        }
        releaseAfterSelect = false;
        return selector.selectNow(dispatch);
    }

    /**
     * A channel closed while registered keeps its socket until its cancelled key leaves the selector, which
     * only a select does: until then a closed listener still completes handshakes and its port cannot be bound.
     */
    void releaseCancelled(final boolean beforeStart) throws IOException
    {
        if (selecting)
        {
            // Selecting again from inside a select is illegal: do it as soon as this one returns.
            releaseAfterSelect = true;
            return;
        }
        // Before the loop starts no owner may run yet: the selector is level-triggered, so what is ready now
        // is reported again by the loop's first select.
        selector.selectNow(beforeStart ? IGNORE : dispatch);
    }

    void closeAll()
    {
        if (!selector.isOpen())
        {
            return;
        }
        for (final SelectionKey key : selector.keys().toArray(new SelectionKey[0]))
        {
            final Object owner = key.attachment();
            if (owner instanceof Selectable)
            {
                stopQuietly((Selectable)owner);
            }
        }
        try
        {
            // A last select deregisters the cancelled keys so their sockets really close.
            selector.selectNow();
            selector.close();
        }
        catch (final IOException ex)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "closing the selector failed", ex);
        }
    }

    private void dispatchAfterWait(final SelectionKey key)
    {
        wakeOnce();
        dispatch(key);
    }

    /** Runs the wake-up action the first time a wait's end is seen, before any owner. */
    private void wakeOnce()
    {
        if (!woken)
        {
            woken = true;
            onWake.run();
        }
    }

    private void dispatch(final SelectionKey key)
    {
        final Selectable owner = (Selectable)key.attachment();
        dispatches.start(owner);
        try
        {
            owner.onSelect(key);
        }
        catch (final Throwable t)
        {
            // Owners handle their own failures; this keeps the loop alive when one of them could not.
            Logs.log(LOG, System.Logger.Level.ERROR, "unhandled failure in " + owner + ", closing it", t);
            stopQuietly(owner);
        }
    }

    private static void stopQuietly(final Selectable owner)
    {
        try
        {
            owner.onReactorStop();
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "stopping " + owner + " failed", t);
        }
    }
}
