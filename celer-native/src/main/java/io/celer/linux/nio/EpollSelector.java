package io.celer.linux.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import io.celer.linux.Syscalls;
import io.celer.linux.epoll.Epoll;

/**
 * A selector over one epoll set, level-triggered as the JDK's is. Keys are found by descriptor in an array, not
 * a map, so a selection boxes nothing; an interest change reaches the epoll set at once; a channel with no
 * interest leaves the set, so that a hang-up it cannot mask does not wake every selection. For the thread that
 * runs the reactor, as the reactor uses it: only {@link #wakeup} is for any thread.
 */
final class EpollSelector extends NativeSelector
{
    private static final int EVENTS = 1024;

    private final Arena arena = Arena.ofShared();
    private final Epoll epoll;
    /** The registered keys, as a view of the table: a connection costs no set entry of its own. */
    private final Set<SelectionKey> keys = new RegisteredKeys();
    private EpollKey[] byDescriptor = new EpollKey[1024];
    private int generation;
    private int registered;
    private final Consumer<SelectionKey> forgetKey = key -> forget((EpollKey)key);

    EpollSelector(final SelectorProvider provider)
    {
        super(provider);
        // The calls' errno in the global arena, as in ThreadCalls.
        this.epoll = new Epoll(arena, new Syscalls(Arena.global()), EVENTS);
    }

    @Override
    protected SelectionKey register(final AbstractSelectableChannel channel, final int ops, final Object attachment)
    {
        if (!(channel instanceof EpollChannel))
        {
            throw new IllegalSelectorException();
        }
        final EpollSelectionKey key = new EpollSelectionKey(this, channel, ++generation);
        key.attach(attachment);
        key.initialInterest(ops);
        enter(key);
        return key;
    }

    /**
     * Registers an accepted stream socket, new or reused, as its own key.
     */
    EpollStream register(final EpollStream stream, final int ops, final Object attachment)
    {
        if (!isOpen())
        {
            throw new ClosedSelectorException();
        }
        if (stream.selector != null && !stream.asleep)
        {
            throw new IllegalStateException(stream + " is registered already");
        }
        stream.selector = this;
        stream.asleep = false;
        stream.token = EpollKey.token(++generation, stream.fd());
        stream.attach(attachment);
        stream.initialInterest(ops);
        enter(stream);
        return stream;
    }

    /**
     * A sleeping key's channel has a new socket: the key comes back under a new token, so that no event of the
     * socket its descriptor number had before reaches it.
     */
    void adopt(final EpollKey key)
    {
        key.token = EpollKey.token(++generation, key.fd());
        enter(key);
    }

    private void enter(final EpollKey key)
    {
        final int fd = key.fd();
        if (fd >= byDescriptor.length)
        {
            byDescriptor = Arrays.copyOf(byDescriptor, Math.max(fd + 1, byDescriptor.length * 2));
        }
        byDescriptor[fd] = key;
        registered++;
        if (key.listens())
        {
            listeners(1);
        }
        key.entered();
        watch(key);
    }


    /**
     * Brings the epoll set in line with a key's interest.
     */
    void watch(final EpollKey key)
    {
        final int events = events(key.interestOps());
        final int fd = key.fd();
        final int result;
        if (events == 0)
        {
            result = key.watched ? epoll.remove(fd) : 0;
            key.watched = false;
        }
        else if (key.watched)
        {
            result = epoll.modify(fd, events, key.token);
        }
        else
        {
            result = epoll.add(fd, events, key.token);
            key.watched = result == 0;
        }
        if (result < 0)
        {
            throw new UncheckedIOException(NativeSocket.failure("epoll_ctl", result));
        }
    }

    /**
     * A key's descriptor closes or its key was cancelled: out of the epoll set and the table, once.
     */
    void forget(final EpollKey key)
    {
        final int fd = key.fd();
        if (key.watched)
        {
            key.watched = false;
            epoll.remove(fd);
        }
        if (fd < byDescriptor.length && byDescriptor[fd] == key)
        {
            byDescriptor[fd] = null;
            registered--;
            if (key.listens())
            {
                listeners(-1);
            }
        }
        key.forgotten();
    }

    private static int events(final int ops)
    {
        int events = 0;
        if ((ops & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0)
        {
            events |= Epoll.EPOLLIN;
        }
        if ((ops & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0)
        {
            events |= Epoll.EPOLLOUT;
        }
        return events;
    }

    private static int readyOps(final EpollKey key, final int flags)
    {
        // An error or a hang-up makes every interest ready, as the JDK does: the next call then reports it.
        final boolean broken = (flags & (Epoll.EPOLLERR | Epoll.EPOLLHUP)) != 0;
        int ready = 0;
        if ((flags & Epoll.EPOLLIN) != 0 || broken)
        {
            ready |= key.listens() ? SelectionKey.OP_ACCEPT : SelectionKey.OP_READ;
        }
        if ((flags & Epoll.EPOLLOUT) != 0 || broken)
        {
            ready |= SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT;
        }
        return ready & key.interestOps();
    }

    private void removeCancelled()
    {
        removeCancelled(forgetKey);
    }

    @Override
    Set<SelectionKey> registered()
    {
        return keys;
    }

    @Override
    int doSelect(final Consumer<SelectionKey> action, final long timeoutMillis) throws IOException
    {
        if (!isOpen())
        {
            throw new ClosedSelectorException();
        }
        removeCancelled();
        final int count;
        if (timeoutMillis == 0)
        {
            count = epoll.poll(0);
        }
        else
        {
            begin();
            try
            {
                count = epoll.poll((int)Math.min(timeoutMillis, Integer.MAX_VALUE));
            }
            finally
            {
                end();
            }
        }
        removeCancelled();
        int updated = 0;
        for (int i = 0; i < count; i++)
        {
            final long token = epoll.token(i);
            final int fd = (int)token;
            final EpollKey key = fd >= 0 && fd < byDescriptor.length ? byDescriptor[fd] : null;
            // A key closed earlier in this selection, or a descriptor already given to another channel: skip.
            if (key == null || key.token != token || !key.isValid())
            {
                continue;
            }
            final int ready = readyOps(key, epoll.readyFlags(i));
            if (ready == 0)
            {
                continue;
            }
            if (action != null)
            {
                key.readyOps(ready);
                action.accept(key);
                updated++;
            }
            else if (selected.add(key))
            {
                key.readyOps(ready);
                updated++;
            }
            else if ((key.readyOps() | ready) != key.readyOps())
            {
                key.readyOps(key.readyOps() | ready);
                updated++;
            }
        }
        return updated;
    }

    @Override
    public Selector wakeup()
    {
        epoll.wakeup();
        return this;
    }

    @Override
    protected void implCloseSelector()
    {
        wakeup();
        removeCancelled();
        for (final SelectionKey key : new ArrayList<>(keys))
        {
            forget((EpollKey)key);
            if (key.channel() != null) // a stream socket is its own key, of no channel
            {
                deregister((EpollKey)key);
            }
        }
        selected.clear();
        dropSpares();
        epoll.close();
        arena.close();
    }

    /** The table's keys, read-only, as {@link Selector#keys} requires. */
    private final class RegisteredKeys extends AbstractSet<SelectionKey>
    {
        @Override
        public Iterator<SelectionKey> iterator()
        {
            final List<SelectionKey> now = new ArrayList<>(registered);
            for (final EpollKey key : byDescriptor)
            {
                if (key != null)
                {
                    now.add(key);
                }
            }
            return Collections.unmodifiableList(now).iterator();
        }

        @Override
        public int size()
        {
            return registered;
        }
    }
}
