package io.celer.linux.epoll;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import io.celer.linux.Errno;
import io.celer.linux.Syscalls;

/**
 * An epoll instance with its event array in native memory, for one thread: descriptors are watched with a
 * {@code long} token of the caller's choosing (a slot and a generation, say), so that a ready event finds its
 * owner in a table with no boxing and no selection key; {@link #poll} fills the array and the caller reads each
 * event's token and flags in place. Nothing is allocated after construction.
 *
 * <p>Any thread may {@link #wakeup()} a thread blocked in {@link #poll}: an {@code eventfd} watched beside the
 * others, whose event {@link #poll} consumes itself.
 */
public final class Epoll implements AutoCloseable
{
    /** Readable, or a connection waits to be accepted. */
    public static final int EPOLLIN = 0x1;
    /** Writable. */
    public static final int EPOLLOUT = 0x4;
    /** An error is pending on the descriptor. */
    public static final int EPOLLERR = 0x8;
    /** Hung up: both directions are closed. */
    public static final int EPOLLHUP = 0x10;
    /** The peer shut its sending side. */
    public static final int EPOLLRDHUP = 0x2000;
    /** Edge-triggered: reported when readiness changes, not while it lasts. */
    public static final int EPOLLET = 0x80000000;
    /** With {@code epoll_create1}: close on exec. */
    public static final int EPOLL_CLOEXEC = 0x80000;
    /** {@code epoll_ctl}: watch a descriptor. */
    public static final int EPOLL_CTL_ADD = 1;
    /** {@code epoll_ctl}: stop watching a descriptor. */
    public static final int EPOLL_CTL_DEL = 2;
    /** {@code epoll_ctl}: change what a descriptor is watched for. */
    public static final int EPOLL_CTL_MOD = 3;
    /** With {@code eventfd}: does not block. */
    public static final int EFD_NONBLOCK = 0x800;
    /** With {@code eventfd}: close on exec. */
    public static final int EFD_CLOEXEC = 0x80000;

    /** The token of the wake-up descriptor; callers' tokens must differ from it. */
    public static final long WAKEUP_TOKEN = Long.MIN_VALUE;

    /**
     * {@code struct epoll_event} is packed on x86-64 (a 4-byte mask, then the 8-byte data: 12 bytes) and
     * naturally aligned elsewhere (16 bytes, the data at 8).
     */
    private static final boolean PACKED = "amd64".equals(System.getProperty("os.arch")) ||
        "x86_64".equals(System.getProperty("os.arch"));
    private static final long EVENT_SIZE = PACKED ? 12 : 16;
    private static final long DATA_OFFSET = PACKED ? 4 : 8;

    /** An eventfd adds 1 per write; the reader takes the sum. Shared by every waker: it is only read. */
    private static final MemorySegment ONE = Arena.global().allocate(ValueLayout.JAVA_LONG);

    static
    {
        ONE.set(ValueLayout.JAVA_LONG, 0, 1L);
    }

    private final Syscalls calls;
    private final int epfd;
    private final int wakeFd;
    private final MemorySegment events;
    private final int capacity;
    private final MemorySegment control;
    private final MemorySegment drained;
    /** The wakers' calls: their own place for errno, which none of them reads. */
    private final Syscalls wakers;

    /**
     * An epoll instance.
     *
     * @param arena    where its memory lives; it must outlive this.
     * @param calls    the owning thread's calls.
     * @param capacity the most events one {@link #poll} reports.
     * @throws IllegalStateException when the kernel refuses an epoll or an eventfd.
     */
    public Epoll(final Arena arena, final Syscalls calls, final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.calls = calls;
        this.capacity = capacity;
        this.events = arena.allocate(EVENT_SIZE * capacity, 8);
        this.control = arena.allocate(16, 8);
        this.drained = arena.allocate(ValueLayout.JAVA_LONG);
        this.wakers = new Syscalls(arena);
        this.epfd = calls.epollCreate(EPOLL_CLOEXEC);
        if (epfd < 0)
        {
            throw new IllegalStateException("epoll_create1 failed: " + Errno.name(epfd));
        }
        this.wakeFd = calls.eventFd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (wakeFd < 0)
        {
            calls.close(epfd);
            throw new IllegalStateException("eventfd failed: " + Errno.name(wakeFd));
        }
        final int added = add(wakeFd, EPOLLIN, WAKEUP_TOKEN);
        if (added < 0)
        {
            close();
            throw new IllegalStateException("epoll_ctl on the eventfd failed: " + Errno.name(added));
        }
    }

    private int control(final int op, final int fd, final int interest, final long token)
    {
        control.set(ValueLayout.JAVA_INT_UNALIGNED, 0, interest);
        control.set(ValueLayout.JAVA_LONG_UNALIGNED, DATA_OFFSET, token);
        return calls.epollControl(epfd, op, fd, control.address());
    }

    /**
     * Watches a descriptor.
     *
     * @param fd       the descriptor.
     * @param interest {@link #EPOLLIN}, {@link #EPOLLOUT}, ... or'ed.
     * @param token    what its events carry; not {@link #WAKEUP_TOKEN}.
     * @return 0, or -errno.
     */
    public int add(final int fd, final int interest, final long token)
    {
        return control(EPOLL_CTL_ADD, fd, interest, token);
    }

    /**
     * Changes what a descriptor is watched for, and its token.
     *
     * @param fd       the descriptor.
     * @param interest the new flags.
     * @param token    the new token.
     * @return 0, or -errno.
     */
    public int modify(final int fd, final int interest, final long token)
    {
        return control(EPOLL_CTL_MOD, fd, interest, token);
    }

    /**
     * Stops watching a descriptor (closing it does too, once no other descriptor refers to its file).
     *
     * @param fd the descriptor.
     * @return 0, or -errno.
     */
    public int remove(final int fd)
    {
        return control(EPOLL_CTL_DEL, fd, 0, 0L);
    }

    /**
     * Waits for events, and consumes a wake-up among them.
     *
     * @param timeoutMillis 0 to return at once, -1 to wait until an event or a wake-up.
     * @return how many events {@link #token} and {@link #readyFlags} now describe, from 0; 0 after a wake-up or a
     *     signal.
     * @throws IllegalStateException when epoll_wait fails otherwise (a closed epoll).
     */
    public int poll(final int timeoutMillis)
    {
        int count = calls.epollWait(epfd, events.address(), capacity, timeoutMillis);
        if (count < 0)
        {
            if (count == -Errno.EINTR)
            {
                return 0;
            }
            throw new IllegalStateException("epoll_wait failed: " + Errno.name(count));
        }
        for (int i = 0; i < count; i++)
        {
            if (token(i) == WAKEUP_TOKEN)
            {
                calls.read(wakeFd, drained.address(), 8);
                // The last event takes its place: the caller sees only its own.
                count--;
                if (i < count)
                {
                    MemorySegment.copy(events, EVENT_SIZE * count, events, EVENT_SIZE * i, EVENT_SIZE);
                }
                break;
            }
        }
        return count;
    }

    /**
     * An event's token.
     *
     * @param index from 0 to what {@link #poll} returned, exclusive.
     * @return the token the descriptor was watched with.
     */
    public long token(final int index)
    {
        return events.get(ValueLayout.JAVA_LONG_UNALIGNED, EVENT_SIZE * index + DATA_OFFSET);
    }

    /**
     * An event's flags.
     *
     * @param index from 0 to what {@link #poll} returned, exclusive.
     * @return {@link #EPOLLIN}, {@link #EPOLLOUT}, {@link #EPOLLERR}, ... or'ed.
     */
    public int readyFlags(final int index)
    {
        return events.get(ValueLayout.JAVA_INT_UNALIGNED, EVENT_SIZE * index);
    }

    /**
     * Any thread: makes a {@link #poll} under way, or the next one, return.
     */
    public void wakeup()
    {
        synchronized (wakers)
        {
            // Wakers share one place for errno; a full counter (EAGAIN) means a wake-up is pending anyway.
            wakers.write(wakeFd, ONE.address(), 8);
        }
    }

    /**
     * Closes the epoll and its wake-up descriptor; the watched descriptors stay open.
     */
    @Override
    public void close()
    {
        calls.close(wakeFd);
        calls.close(epfd);
    }
}
