package io.celer.linux.nio;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import io.celer.linux.Errno;
import io.celer.linux.Syscalls;
import io.celer.linux.UringCalls;
import io.celer.linux.epoll.Epoll;
import io.celer.linux.uring.BufferRing;
import io.celer.linux.uring.CompletionHandler;
import io.celer.linux.uring.IoUring;
import io.celer.linux.uring.UserData;

/**
 * A selector over an io_uring, a completion transport behind the readiness API the reactor uses. A select is one
 * {@code io_uring_enter} that submits every operation prepared in the cycle (sends, receives armed again,
 * cancellations) and waits, when asked to, only if no key is ready already; then the completions update the keys'
 * state, and the keys are ready by that state and their interest, level-triggered as the JDK's are.
 *
 * <p>A connection receives through a multishot receive into the selector's {@link BufferRing} while its interest
 * holds {@code OP_READ}; its read copies the bytes out and gives the buffer back, and with none queued and no
 * receive armed reads the socket itself, as the epoll transport does. A connection holding
 * {@value UringSelectionKey#HELD_BUFFERS} buffers, or losing its read interest, has its receive cancelled, so that
 * a paused connection cannot take the group's buffers; a receive ended for want of buffers is armed again when
 * some come back. A write copies into a send buffer lent from a pool, one send in flight per connection;
 * {@code OP_WRITE} is ready while that buffer has room. A listener accepts through a multishot accept; a
 * connection being made, and any other channel (a datagram channel), is polled for readiness. The user data of
 * every operation holds its key's slot and the slot's generation, so a closed channel's late completion never
 * reaches the slot's next channel; a slot and its descriptor are kept until the kernel holds nothing of them.
 *
 * <p>The reactor opens its selector on one thread and selects on another, so the ring is made disabled, with
 * {@code SINGLE_ISSUER} and {@code DEFER_TASKRUN}, and the first thread that selects enables it and owns it: the
 * kernel then runs completion work only when that thread enters the ring, never by interrupting it, and skips
 * the locking a shared ring needs. Another thread's select fails. On a kernel without these flags (before 6.1)
 * the ring is one that any one thread at a time may select. Only {@link #wakeup} is for any thread; the rest
 * for the one thread that selects.
 */
final class UringSelector extends NativeSelector implements CompletionHandler
{
    private static final int RECEIVE = 1;
    private static final int SEND = 2;
    private static final int ACCEPT = 3;
    private static final int POLL = 4;
    private static final int CANCEL = 5;
    private static final int WAKE = 6;

    private static final int ENTRIES = 1024;
    /** How long a closing selector waits for the kernel to give back what its operations hold. */
    private static final long CLOSE_WAIT_NANOS = 100_000_000L;
    /** Every address, for copies between the ring's memory and a buffer's without a segment per copy. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    /** An eventfd adds what is written: every waker writes this 1. */
    private static final MemorySegment ONE = Arena.global().allocate(JAVA_LONG);

    static
    {
        ONE.set(JAVA_LONG, 0, 1L);
    }

    private final Arena arena = Arena.ofShared();
    private final IoUring ring;
    private final BufferRing buffers;
    private final Syscalls calls = new Syscalls(Arena.global());
    private final Syscalls wakers = new Syscalls(Arena.global());
    private final int wakeFd;
    private final MemorySegment wakeWord;
    private volatile boolean woken;
    private boolean wakeArmed;
    private final BufferAddresses addresses = new BufferAddresses();
    private final int sendBufferSize;
    private final LongQueue freeSendBuffers = new LongQueue(16);

    private final Set<SelectionKey> keys = new RegisteredKeys();
    private UringSelectionKey[] slots = new UringSelectionKey[256];
    private int[] generations = new int[256];
    private final LongQueue freeSlots = new LongQueue(256);
    /**
     * Receive queues for connections that hold buffers unread: each holds one at least, so there are never more
     * out than the ring has buffers, and an idle connection holds none.
     */
    private final ArrayDeque<LongQueue> receiveQueues = new ArrayDeque<>();
    private int usedSlots;
    private int registered;
    private final Consumer<SelectionKey> settleKey = key ->
    {
        // A sleeping key, cancelled when its channel is let go, was counted out when it fell asleep.
        if (!((UringSelectionKey)key).asleep)
        {
            registered--;
        }
        settle((UringSelectionKey)key);
    };
    private UringSelectionKey[] sleepingKeys = new UringSelectionKey[16];
    private int sleepingCount;

    private UringSelectionKey[] checks = new UringSelectionKey[64];
    private UringSelectionKey[] checking = new UringSelectionKey[64];
    private int checkCount;
    private UringSelectionKey[] pendings = new UringSelectionKey[64];
    private UringSelectionKey[] preparing = new UringSelectionKey[64];
    private int pendingCount;
    private UringSelectionKey[] starved = new UringSelectionKey[16];
    private int starvedCount;
    /** Provided buffers holding bytes not yet read, and receives that found none: for the tests. */
    private int buffersHeld;
    private long starvations;
    /**
     * The thread of the last select, the ring's owner: the only one that may enter a single issuer's ring, and
     * the one whose read or write outside a select may enter it.
     */
    private Thread owner;
    /** Whether a select is under way: what a read or a write may do. */
    private boolean selecting;
    /**
     * Selects so far: a key's second read that finds nothing in one select enters the ring. An int, as each key
     * keeps one: it is only compared for equality, so its wrapping costs at most one extra entry.
     */
    int selects;

    UringSelector(final SelectorProvider provider, final int bufferCount, final int bufferSize,
        final int sendBufferSize) throws IOException
    {
        super(provider);
        this.sendBufferSize = sendBufferSize;
        final UringCalls uringCalls = new UringCalls(arena);
        try
        {
            ring = IoUring.openForFirstUser(arena, uringCalls, ENTRIES);
        }
        catch (final IllegalStateException refused)
        {
            arena.close();
            throw new IOException(refused.getMessage(), refused);
        }
        try
        {
            buffers = new BufferRing(arena, ring, (short)0, bufferCount, bufferSize);
        }
        catch (final IllegalStateException refused)
        {
            ring.close();
            arena.close();
            throw new IOException(refused.getMessage(), refused);
        }
        wakeFd = calls.eventFd(0, Epoll.EFD_NONBLOCK | Epoll.EFD_CLOEXEC);
        if (wakeFd < 0)
        {
            buffers.close();
            ring.close();
            arena.close();
            throw new IOException("eventfd failed: " + Errno.name(wakeFd));
        }
        wakeWord = arena.allocate(8, 8);
    }

    @Override
    protected SelectionKey register(final AbstractSelectableChannel channel, final int ops, final Object attachment)
    {
        if (!(channel instanceof EpollChannel))
        {
            throw new IllegalSelectorException();
        }
        checkOwner("registration");
        final int slot = takeSlot();
        final UringSelectionKey key = new UringChannelKey(this, channel, slot, generations[slot]);
        key.attach(attachment);
        key.initialInterest(ops);
        enter(key);
        return key;
    }

    /**
     * Registers an accepted stream socket, new or kept from an earlier connection, as its own key.
     */
    UringStream register(final UringStream stream, final int ops, final Object attachment)
    {
        if (!isOpen())
        {
            throw new ClosedSelectorException();
        }
        checkOwner("registration");
        if (stream.selector != null && !(stream.asleep && stream.released))
        {
            throw new IllegalStateException(stream + " is registered already");
        }
        stream.selector = this;
        final int slot = takeSlot();
        stream.wakeIn(slot, generations[slot]);
        stream.attach(attachment);
        stream.initialInterest(ops);
        enter(stream);
        return stream;
    }

    private int takeSlot()
    {
        final int slot = freeSlots.isEmpty() ? usedSlots++ : (int)freeSlots.poll();
        if (slot >= slots.length)
        {
            slots = Arrays.copyOf(slots, slots.length * 2);
            generations = Arrays.copyOf(generations, generations.length * 2);
        }
        return slot;
    }

    private void enter(final UringSelectionKey key)
    {
        slots[key.slot] = key;
        registered++;
        if (key.kind == UringSelectionKey.LISTENER)
        {
            listeners(1);
        }
        if (key.kind != UringSelectionKey.POLLED)
        {
            key.takeSocket();
        }
        changed(key);
    }

    /**
     * A sleeping key's channel has a new socket: the key takes a free slot under that slot's generation, so that
     * no completion of the socket it had before can reach it.
     */
    void wake(final UringSelectionKey key)
    {
        final int slot = takeSlot();
        key.wakeIn(slot, generations[slot]);
        enter(key);
    }

    /** A key fell asleep: settled at the next select, as a cancelled key is. */
    void sleeping(final UringSelectionKey key)
    {
        if (sleepingCount == sleepingKeys.length)
        {
            sleepingKeys = Arrays.copyOf(sleepingKeys, sleepingCount * 2);
        }
        sleepingKeys[sleepingCount++] = key;
    }

    /** A key's interest or state changed: its operations and its readiness are looked at again. */
    void changed(final UringSelectionKey key)
    {
        pending(key);
        checked(key);
    }

    /** A key has operations to prepare (or cancel) at the next select. */
    void pending(final UringSelectionKey key)
    {
        if (!key.pending)
        {
            key.pending = true;
            if (pendingCount == pendings.length)
            {
                pendings = Arrays.copyOf(pendings, pendingCount * 2);
            }
            pendings[pendingCount++] = key;
        }
    }

    private void checked(final UringSelectionKey key)
    {
        if (!key.checked)
        {
            key.checked = true;
            if (checkCount == checks.length)
            {
                checks = Arrays.copyOf(checks, checkCount * 2);
            }
            checks[checkCount++] = key;
        }
    }

    int sendBufferSize()
    {
        return sendBufferSize;
    }

    long lendSendBuffer()
    {
        return freeSendBuffers.isEmpty() ? arena.allocate(sendBufferSize, 64).address() : freeSendBuffers.poll();
    }

    /** A connection's send buffer, emptied, goes back to the pool: an idle connection holds none. */
    void giveBack(final UringSelectionKey key)
    {
        if (key.sendBuffer != 0)
        {
            freeSendBuffers.add(key.sendBuffer);
            key.sendBuffer = 0;
        }
    }

    void copyOut(final int id, final int offset, final ByteBuffer destination, final int count)
    {
        final long from = buffers.address(id) + offset;
        final int position = destination.position();
        if (destination.isDirect())
        {
            MemorySegment.copy(ALL, from, ALL, addresses.address(destination), count);
        }
        else
        {
            MemorySegment.copy(ALL, JAVA_BYTE, from, destination.array(), destination.arrayOffset() + position, count);
        }
        destination.position(position + count);
    }

    void copyIn(final ByteBuffer source, final long to, final int count)
    {
        final int position = source.position();
        if (source.isDirect())
        {
            MemorySegment.copy(ALL, addresses.address(source), ALL, to, count);
        }
        else if (source.hasArray())
        {
            MemorySegment.copy(source.array(), source.arrayOffset() + position, ALL, JAVA_BYTE, to, count);
        }
        else
        {
            for (int i = 0; i < count; i++)
            {
                ALL.set(JAVA_BYTE, to + i, source.get(position + i));
            }
        }
        source.position(position + count);
    }

    void moveToFront(final long from, final long to, final int count)
    {
        MemorySegment.copy(ALL, from, ALL, to, count);
    }

    /** A buffer read out goes back to the kernel; a receive that ran out of buffers may go on. */
    void recycle(final int id)
    {
        buffers.recycle(id);
        buffersHeld--;
        if (starvedCount > 0)
        {
            for (int i = 0; i < starvedCount; i++)
            {
                starved[i].starved = false;
                pending(starved[i]);
                starved[i] = null;
            }
            starvedCount = 0;
        }
    }

    private long userData(final UringSelectionKey key, final int operation)
    {
        return UserData.of(key.slot, key.generation, operation);
    }

    /** Prepares what the pending keys need, submitting first when the submission ring is full. */
    private void prepareAll()
    {
        if (!wakeArmed)
        {
            while (!ring.poll(wakeFd, IoUring.POLLIN, true, UserData.of(0, 0, WAKE)))
            {
                makeRoom();
            }
            wakeArmed = true;
        }
        while (pendingCount > 0)
        {
            final UringSelectionKey[] batch = pendings;
            final int count = pendingCount;
            pendings = preparing;
            preparing = batch;
            pendingCount = 0;
            for (int i = 0; i < count; i++)
            {
                final UringSelectionKey key = batch[i];
                batch[i] = null;
                key.pending = false;
                prepare(key);
            }
        }
    }

    private void prepare(final UringSelectionKey key)
    {
        if (key.released)
        {
            return;
        }
        final boolean open = key.isValid() && !key.channelClosed;
        final int interest = key.interest();
        final int fd = key.fd();
        switch (key.kind)
        {
            case UringSelectionKey.STREAM:
            {
                if (key instanceof UringChannelKey channelKey) // an accepted stream is never connecting
                {
                    // A connect's readiness is its socket's POLLOUT, polled while the connect is pending.
                    preparePoll(channelKey, fd, open && (interest & SelectionKey.OP_CONNECT) != 0 &&
                        key.connectionPending() ? IoUring.POLLOUT : 0);
                }
                final boolean receive = open && (interest & SelectionKey.OP_READ) != 0 && key.connected() &&
                    !key.endOfStream && key.readError == 0 && !key.inputShut && !key.starved &&
                    key.receivedCount() < UringSelectionKey.HELD_BUFFERS;
                if (receive && !key.receiving)
                {
                    while (!ring.receiveMultishot(fd, buffers.group(), userData(key, RECEIVE)))
                    {
                        makeRoom();
                    }
                    key.receiving = true;
                    key.inFlight++;
                }
                else if (!receive && key.receiving && !key.receiveCancelling)
                {
                    cancel(key, RECEIVE);
                    key.receiveCancelling = true;
                }
                if (key.hasUnsent() && !key.sending && key.writeError == 0)
                {
                    while (!ring.send(fd, key.sendBuffer + key.sent, key.staged - key.sent, userData(key, SEND)))
                    {
                        makeRoom();
                    }
                    key.sending = true;
                    key.inFlight++;
                }
                break;
            }
            case UringSelectionKey.LISTENER:
            {
                final UringChannelKey listener = (UringChannelKey)key;
                final boolean accept = open && (interest & SelectionKey.OP_ACCEPT) != 0 && listener.acceptError == 0;
                if (accept && !listener.accepting)
                {
                    while (!ring.acceptMultishot(fd, userData(key, ACCEPT)))
                    {
                        makeRoom();
                    }
                    listener.accepting = true;
                    key.inFlight++;
                }
                else if (!accept && listener.accepting && !listener.acceptCancelling)
                {
                    cancel(key, ACCEPT);
                    listener.acceptCancelling = true;
                }
                break;
            }
            default:
            {
                final int events = ((interest & SelectionKey.OP_READ) != 0 ? IoUring.POLLIN : 0) |
                    ((interest & SelectionKey.OP_WRITE) != 0 ? IoUring.POLLOUT : 0);
                preparePoll((UringChannelKey)key, fd, open ? events : 0);
                break;
            }
        }
    }

    /**
     * A channel's one-shot poll for the events it wants (none: 0), armed unless one is in flight or its last
     * result is not yet taken, and cancelled once the events it waits for are no longer wanted.
     */
    private void preparePoll(final UringChannelKey key, final int fd, final int events)
    {
        final boolean poll = events != 0 && key.polled == 0;
        if (poll && !key.polling)
        {
            while (!ring.poll(fd, events, false, userData(key, POLL)))
            {
                makeRoom();
            }
            key.polling = true;
            key.pollEvents = events;
            key.inFlight++;
        }
        else if (key.polling && !key.pollCancelling && (!poll || events != key.pollEvents))
        {
            cancel(key, POLL);
            key.pollCancelling = true;
        }
    }

    /**
     * The submission ring is full: what is in it goes to the kernel; should the kernel take none (its completion
     * ring overflowing), completions are reaped first, so that preparing never spins.
     */
    private void makeRoom()
    {
        if (ring.submit() <= 0)
        {
            ring.complete(this);
        }
    }

    private void cancel(final UringSelectionKey key, final int operation)
    {
        while (!ring.cancel(userData(key, operation), userData(key, CANCEL)))
        {
            makeRoom();
        }
    }

    @Override
    public void complete(final long userData, final int result, final int flags)
    {
        final int operation = UserData.operation(userData);
        if (operation == WAKE)
        {
            calls.read(wakeFd, wakeWord.address(), 8);
            if ((flags & IoUring.CQE_F_MORE) == 0)
            {
                wakeArmed = false;
            }
            return;
        }
        if (operation == CANCEL)
        {
            return;
        }
        final int slot = UserData.slot(userData);
        final UringSelectionKey key = slot < usedSlots ? slots[slot] : null;
        final boolean more = (flags & IoUring.CQE_F_MORE) != 0;
        if (key == null || (key.generation & UserData.GENERATION_MASK) != UserData.generation(userData))
        {
            // Cannot happen while slots wait for their operations; kept safe all the same.
            if ((flags & IoUring.CQE_F_BUFFER) != 0)
            {
                buffersHeld++;
                recycle(IoUring.bufferId(flags));
            }
            if (operation == ACCEPT && result >= 0)
            {
                calls.close(result);
            }
            return;
        }
        switch (operation)
        {
            case RECEIVE:
                received(key, result, flags);
                if (!more)
                {
                    key.receiving = false;
                    key.receiveCancelling = false;
                    key.inFlight--;
                }
                break;
            case SEND:
                key.inFlight--;
                key.sent(result == -Errno.ECANCELED ? -Errno.EPIPE : result);
                break;
            case ACCEPT:
            {
                final UringChannelKey listener = (UringChannelKey)key;
                if (result >= 0)
                {
                    if (key.channelClosed || !key.isValid())
                    {
                        calls.close(result);
                    }
                    else
                    {
                        listener.accepted.add(result);
                    }
                }
                else if (result != -Errno.ECANCELED)
                {
                    listener.acceptError = result;
                }
                if (!more)
                {
                    listener.accepting = false;
                    listener.acceptCancelling = false;
                    key.inFlight--;
                }
                break;
            }
            case POLL:
            {
                final UringChannelKey polled = (UringChannelKey)key;
                if (result > 0)
                {
                    polled.polled |= result;
                }
                else if (result < 0 && result != -Errno.ECANCELED)
                {
                    polled.polled |= IoUring.POLLERR;
                }
                polled.polling = false;
                polled.pollCancelling = false;
                key.inFlight--;
                break;
            }
            default:
                break;
        }
        if (key.isValid() && !key.channelClosed)
        {
            changed(key);
        }
        else
        {
            settle(key);
        }
    }

    /** A receive queue for a connection's first buffer unread. */
    LongQueue lendQueue()
    {
        final LongQueue queue = receiveQueues.pollLast();
        return queue != null ? queue : new LongQueue(4);
    }

    /** A connection read its last buffer. */
    void takeBackQueue(final LongQueue queue)
    {
        receiveQueues.addLast(queue);
    }

    private void received(final UringSelectionKey key, final int result, final int flags)
    {
        if ((flags & IoUring.CQE_F_BUFFER) != 0)
        {
            final int id = IoUring.bufferId(flags);
            buffersHeld++;
            if (result > 0 && !key.channelClosed && key.isValid())
            {
                key.queueReceived((long)id << 32 | result);
                if (key.receivedCount() >= UringSelectionKey.HELD_BUFFERS)
                {
                    pending(key);
                }
            }
            else
            {
                recycle(id);
            }
        }
        else if (result == 0)
        {
            key.endOfStream = true;
        }
        else if (result == -Errno.ENOBUFS)
        {
            starvations++;
            key.starved = true;
            if (starvedCount == starved.length)
            {
                starved = Arrays.copyOf(starved, starvedCount * 2);
            }
            starved[starvedCount++] = key;
        }
        else if (result < 0 && result != -Errno.ECANCELED)
        {
            key.readError = (short)result;
        }
    }

    /**
     * A key deregistered, or its channel closed: once the kernel holds nothing of it and its staged bytes are
     * gone, its buffers go back, its descriptor closes if the channel did, and its slot is free for another.
     */
    private void settle(final UringSelectionKey key)
    {
        if (key.released)
        {
            return;
        }
        if ((key.isValid() && !key.asleep) || key.inFlight > 0 || (key.hasUnsent() && key.writeError == 0))
        {
            pending(key);
            return;
        }
        if (key.channelClosed)
        {
            key.released = true;
            while (key.hasReceived())
            {
                recycle((int)(key.pollReceived() >>> 32));
            }
            if (key instanceof UringChannelKey listener && listener.accepted != null)
            {
                while (!listener.accepted.isEmpty())
                {
                    calls.close((int)listener.accepted.poll());
                }
            }
            giveBack(key);
            if (ring.prepared() > 0)
            {
                // No entry may name the descriptor once the kernel can give its number to another socket.
                ring.submit();
            }
            key.releaseSocket();
            key.leaveSocket();
        }
        else
        {
            // Deregistered with its channel open: back to plain system calls, once the bytes queued are read.
            key.released = true;
            giveBack(key);
            if (!key.hasReceived())
            {
                key.leaveSocket();
            }
        }
        if (slots[key.slot] == key)
        {
            slots[key.slot] = null;
            generations[key.slot] = UserData.next(generations[key.slot]);
            freeSlots.add(key.slot);
            if (key.kind == UringSelectionKey.LISTENER)
            {
                listeners(-1);
            }
        }
        if (key.asleep)
        {
            key.socketReleased();
        }
    }

    private void removeCancelled()
    {
        removeCancelled(settleKey);
        for (int i = 0; i < sleepingCount; i++)
        {
            final UringSelectionKey key = sleepingKeys[i];
            sleepingKeys[i] = null;
            registered--;
            settle(key);
        }
        sleepingCount = 0;
    }

    private boolean anyReady()
    {
        for (int i = 0; i < checkCount; i++)
        {
            final UringSelectionKey key = checks[i];
            if (key.isValid() && !key.asleep && key.readiness() != 0)
            {
                return true;
            }
        }
        return false;
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
        own();
        selecting = true;
        selects++;
        try
        {
            return selectAndReport(action, timeoutMillis);
        }
        finally
        {
            selecting = false;
        }
    }

    /**
     * Enables the ring for the first thread that selects, which then owns it; a later thread may select only a
     * ring that any thread may enter.
     *
     * @throws IOException if the kernel does not enable it.
     * @throws IllegalStateException if another thread owns a single issuer's ring.
     */
    private void own() throws IOException
    {
        final Thread current = Thread.currentThread();
        if (owner == current)
        {
            return;
        }
        if (owner == null)
        {
            final int enabled = ring.enableForThisThread();
            if (enabled < 0)
            {
                throw new IOException("io_uring_register(ENABLE_RINGS) failed: " + Errno.name(enabled));
            }
        }
        else if (ring.singleIssuer())
        {
            throw new IllegalStateException("this io_uring selector belongs to thread '" + owner.getName() +
                "', its first to select: '" + current.getName() + "' may not select it");
        }
        owner = current;
    }

    /**
     * Fails a channel's read, write, registration or interest change on another thread than the one that
     * selects: the keys' queues, their send buffers and the ring are that thread's alone, and a second thread
     * would corrupt them unseen (bytes sent twice, or never). The JDK's channels allow it; these say so at once
     * instead.
     *
     * @param operation what was called, for the message.
     */
    void checkOwner(final String operation)
    {
        final Thread selecting = owner;
        if (selecting != null && selecting != Thread.currentThread() && isOpen())
        {
            throw new IllegalStateException("an io_uring channel's " + operation + " on thread '" +
                Thread.currentThread().getName() + "': only the thread that selects it, '" + selecting.getName() +
                "', may read, write, register or change interest");
        }
    }

    /** Whether this thread may enter the ring now: it is enabled, and not a single issuer's of another thread. */
    private boolean mayEnter()
    {
        return !ring.disabled() && (!ring.singleIssuer() || owner == Thread.currentThread());
    }

    /**
     * A read found nothing queued, or a write staged bytes, outside a select on the selecting thread (a busy-polled
     * connection, read every cycle while the ring is entered only every so many): the ring is entered now, as an
     * epoll transport's read or write would call the kernel, so that neither waits for the next select. Inside a
     * select's dispatch nothing is entered unless asked: the select that follows submits everything at once.
     *
     * @param inSelectToo whether to enter inside a select's dispatch as well.
     * @return whether the ring was entered.
     */
    boolean enterOutsideSelect(final boolean inSelectToo)
    {
        if ((selecting && !inSelectToo) || Thread.currentThread() != owner || !isOpen())
        {
            return false;
        }
        prepareAll();
        ring.submit();
        ring.complete(this);
        return true;
    }

    private int selectAndReport(final Consumer<SelectionKey> action, final long timeoutMillis) throws IOException
    {
        removeCancelled();
        prepareAll();
        final boolean waits = timeoutMillis != 0;
        final long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0L;
        while (true)
        {
            final long nanos = timeoutMillis > 0 ? deadline - System.nanoTime() : 0L;
            final int entered;
            if (waits && !woken && (timeoutMillis < 0 || nanos > 0) && !anyReady())
            {
                begin();
                try
                {
                    entered = ring.submitAndWait(1, nanos);
                }
                finally
                {
                    end();
                }
            }
            else
            {
                entered = ring.submit();
            }
            if (entered < 0 && entered != -Errno.EINTR && entered != -Errno.ETIME && entered != -Errno.EBUSY &&
                entered != -Errno.EAGAIN)
            {
                throw new IOException("io_uring_enter failed: " + Errno.name(entered));
            }
            ring.complete(this);
            removeCancelled();
            // A wait ends for a key made ready, a wake-up or the time, as the JDK's does: not for a completion
            // that readies nothing (a send's), which would cost the reactor a cycle per message.
            if (!waits || woken || entered == -Errno.ETIME || entered == -Errno.EINTR || anyReady() ||
                (timeoutMillis > 0 && System.nanoTime() - deadline >= 0))
            {
                break;
            }
            prepareAll();
        }
        woken = false;
        return report(action);
    }

    private int report(final Consumer<SelectionKey> action)
    {
        final UringSelectionKey[] batch = checks;
        final int count = checkCount;
        checks = checking;
        checking = batch;
        checkCount = 0;
        int updated = 0;
        for (int i = 0; i < count; i++)
        {
            final UringSelectionKey key = batch[i];
            batch[i] = null;
            key.checked = false;
            if (!key.isValid() || key.asleep)
            {
                continue;
            }
            final int ready = key.readiness();
            if (ready == 0)
            {
                continue;
            }
            // Still ready at the next select unless its owner takes what is there: looked at again.
            checked(key);
            if (key.kind == UringSelectionKey.POLLED)
            {
                // A poll reports once: the next select polls again, which completes at once while still ready.
                ((UringChannelKey)key).polled = 0;
                pending(key);
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
        if (!woken)
        {
            woken = true;
            synchronized (wakers)
            {
                // Wakers share one place for errno; a full counter (EAGAIN) means a wake-up is pending anyway.
                wakers.write(wakeFd, ONE.address(), 8);
            }
        }
        return this;
    }

    @Override
    protected void implCloseSelector()
    {
        wakeup();
        removeCancelled();
        for (final SelectionKey key : new ArrayList<>(keys))
        {
            if (key.channel() != null) // a stream socket is its own key, of no channel
            {
                deregister((UringSelectionKey)key);
            }
            registered--;
        }
        // Every operation cancelled and its completion awaited, briefly, so that the kernel writes into no buffer
        // after the memory goes; then what the closed channels held closes with them.
        for (int slot = 0; slot < usedSlots; slot++)
        {
            final UringSelectionKey key = slots[slot];
            if (key != null)
            {
                key.writeError = key.writeError == 0 ? (short)-Errno.EPIPE : key.writeError;
                pending(key);
            }
        }
        if (mayEnter())
        {
            prepareAll();
            final long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
            while (inFlight() > 0 && System.nanoTime() < deadline)
            {
                ring.submitAndWait(1, 10_000_000L);
                ring.complete(this);
                prepareAll();
            }
        }
        // Else closed by a thread that may not enter its owner's ring: the kernel cancels what is in flight as
        // the ring closes, and the memory it may still write into is left to it (below).
        for (int slot = 0; slot < usedSlots; slot++)
        {
            final UringSelectionKey key = slots[slot];
            if (key != null && key.channelClosed && !key.released)
            {
                key.released = true;
                key.releaseSocket();
            }
            if (key != null)
            {
                key.leaveSocket();
            }
        }
        selected.clear();
        dropSpares();
        calls.close(wakeFd);
        buffers.close();
        ring.close();
        if (inFlight() == 0)
        {
            arena.close();
        }
    }

    private int inFlight()
    {
        int total = 0;
        for (int slot = 0; slot < usedSlots; slot++)
        {
            final UringSelectionKey key = slots[slot];
            total += key == null ? 0 : key.inFlight;
        }
        return total;
    }

    /** Whether the ring has one submitter, its owner, whose entering alone runs completion work: for the tests. */
    boolean ownedByOneThread()
    {
        return ring.singleIssuer() && ring.defersTaskRun();
    }

    /** Provided buffers lent to connections and not yet read back. */
    int buffersHeld()
    {
        return buffersHeld;
    }

    /** Receives that ended for want of a provided buffer. */
    long starvations()
    {
        return starvations;
    }

    /** The registered keys, read-only, as {@link Selector#keys} requires. */
    private final class RegisteredKeys extends AbstractSet<SelectionKey>
    {
        @Override
        public Iterator<SelectionKey> iterator()
        {
            final List<SelectionKey> now = new ArrayList<>(registered);
            for (int slot = 0; slot < usedSlots; slot++)
            {
                final UringSelectionKey key = slots[slot];
                if (key != null && key.isValid() && !key.asleep)
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
