package io.celer.linux.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import io.celer.linux.Errno;
import io.celer.linux.Net;
import io.celer.linux.UringCalls;

/**
 * An io_uring for one thread: its submission and completion rings mapped from the kernel and read and written in
 * place, with acquire and release ordering on the indices the kernel shares. Operations are prepared into
 * submission entries ({@link #accept}, {@link #receive}, {@link #send}, ...), each with a {@code long} of user
 * data that its completion carries back ({@link UserData} packs a slot, a generation and an operation into it),
 * submitted together by one {@link #submit} or {@link #submitAndWait}, and their completions handed to a
 * {@link CompletionHandler} by {@link #complete}. Nothing is allocated after {@link #open}.
 *
 * <p>The ring is made with {@code IORING_SETUP_SINGLE_ISSUER} and {@code IORING_SETUP_DEFER_TASKRUN} where the
 * kernel has them (6.1 and later): completions are then produced only when the owning thread enters the ring,
 * never by interrupting it, so the thread that opens a ring must be the one that uses it, or, for a ring made
 * disabled ({@link #openForFirstUser}), the one that enables it. An older kernel gets
 * {@code IORING_SETUP_COOP_TASKRUN}, or no flag.
 */
public final class IoUring implements AutoCloseable
{
    /** {@code IORING_SETUP_CQSIZE}: the completion ring's size is given. */
    static final int SETUP_CQSIZE = 1 << 3;
    /** {@code IORING_SETUP_R_DISABLED}: the ring starts disabled, and the thread that enables it owns it. */
    static final int SETUP_R_DISABLED = 1 << 6;
    /** {@code IORING_SETUP_SUBMIT_ALL}: go on submitting after an entry that fails at once. */
    static final int SETUP_SUBMIT_ALL = 1 << 7;
    /** {@code IORING_SETUP_COOP_TASKRUN}: no interrupt to run completion work. */
    static final int SETUP_COOP_TASKRUN = 1 << 8;
    /** {@code IORING_SETUP_SINGLE_ISSUER}: one thread submits. */
    static final int SETUP_SINGLE_ISSUER = 1 << 12;
    /** {@code IORING_SETUP_DEFER_TASKRUN}: completion work runs when the issuer enters the ring. */
    static final int SETUP_DEFER_TASKRUN = 1 << 13;

    /** {@code IORING_FEAT_SINGLE_MMAP}: both rings in one mapping. */
    private static final int FEAT_SINGLE_MMAP = 1;
    /** {@code IORING_FEAT_NODROP}: completions beyond the ring are kept, not dropped. */
    private static final int FEAT_NODROP = 1 << 1;
    /** {@code IORING_FEAT_EXT_ARG}: {@code io_uring_enter} takes a timeout. */
    private static final int FEAT_EXT_ARG = 1 << 8;

    /** {@code IORING_REGISTER_ENABLE_RINGS}. */
    private static final int REGISTER_ENABLE_RINGS = 12;

    private static final int ENTER_GETEVENTS = 1;
    private static final int ENTER_EXT_ARG = 1 << 3;

    private static final long OFF_SQ_RING = 0L;
    private static final long OFF_CQ_RING = 0x8000000L;
    private static final long OFF_SQES = 0x10000000L;

    /** Operations ({@code IORING_OP_*}). */
    static final byte OP_NOP = 0;
    static final byte OP_POLL_ADD = 6;
    static final byte OP_ACCEPT = 13;
    static final byte OP_ASYNC_CANCEL = 14;
    static final byte OP_CLOSE = 19;
    static final byte OP_SEND = 26;
    static final byte OP_RECV = 27;
    static final byte OP_SHUTDOWN = 34;

    /** {@code IORING_POLL_ADD_MULTI}, in a poll's {@code len}. */
    private static final int POLL_ADD_MULTI = 1;

    /** {@code POLLIN}, for {@link #poll}. */
    public static final int POLLIN = 0x1;
    /** {@code POLLOUT}. */
    public static final int POLLOUT = 0x4;
    /** {@code POLLERR}: always reported. */
    public static final int POLLERR = 0x8;
    /** {@code POLLHUP}: always reported. */
    public static final int POLLHUP = 0x10;

    /** {@code IOSQE_BUFFER_SELECT}: the kernel picks the buffer from a group. */
    private static final byte SQE_BUFFER_SELECT = 1 << 5;
    /** {@code IORING_ACCEPT_MULTISHOT}, in an accept's {@code ioprio}. */
    private static final short ACCEPT_MULTISHOT = 1;
    /** {@code IORING_RECV_MULTISHOT}, in a receive's {@code ioprio}. */
    private static final short RECV_MULTISHOT = 1 << 1;

    /** {@code IORING_CQE_F_BUFFER}: the completion used a provided buffer, its id in the flags' upper half. */
    public static final int CQE_F_BUFFER = 1;
    /** {@code IORING_CQE_F_MORE}: a multishot operation stays armed; more completions will come. */
    public static final int CQE_F_MORE = 1 << 1;
    /** Where a completion's buffer id starts in its flags ({@code IORING_CQE_BUFFER_SHIFT}). */
    public static final int CQE_BUFFER_SHIFT = 16;

    private static final long SQE_SIZE = 64;
    private static final long CQE_SIZE = 16;
    private static final long PARAMS_SIZE = 120;

    private static final VarHandle INT = JAVA_INT.varHandle();

    private final UringCalls calls;
    private final int fd;
    private final int setupFlags;
    private final int features;
    private final long ringAddress;
    private final long ringLength;
    private final long cqRingAddress;
    private final long cqRingLength;
    private final long sqesAddress;
    private final long sqesLength;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final MemorySegment waitArg;
    private final long sqHead;
    private final long sqTail;
    private final int sqMask;
    private final int sqEntries;
    private final long cqHead;
    private final long cqTail;
    private final int cqMask;
    private final long cqes;
    /** Our copy of the submission tail: entries prepared; the shared one is published at submit. */
    private int tail;
    private int prepared;
    private boolean closed;
    /** Made disabled and not yet enabled: no submission until a thread enables it. */
    private boolean disabled;

    private IoUring(final UringCalls calls, final Arena arena, final int fd, final int setupFlags,
        final MemorySegment params)
    {
        this.calls = calls;
        this.fd = fd;
        this.setupFlags = setupFlags;
        this.disabled = (setupFlags & SETUP_R_DISABLED) != 0;
        this.features = params.get(JAVA_INT, 20);
        final int sqCount = params.get(JAVA_INT, 0);
        final int cqCount = params.get(JAVA_INT, 4);
        final long sqArray = Integer.toUnsignedLong(params.get(JAVA_INT, 64));
        final long cqCqes = Integer.toUnsignedLong(params.get(JAVA_INT, 100));
        final long sqSize = sqArray + 4L * sqCount;
        final long cqSize = cqCqes + CQE_SIZE * cqCount;
        final boolean single = (features & FEAT_SINGLE_MMAP) != 0;
        ringLength = single ? Math.max(sqSize, cqSize) : sqSize;
        ringAddress = mapped(calls.mapShared(ringLength, fd, OFF_SQ_RING), "the submission ring");
        if (single)
        {
            cqRingAddress = ringAddress;
            cqRingLength = 0;
        }
        else
        {
            cqRingLength = cqSize;
            cqRingAddress = mapped(calls.mapShared(cqSize, fd, OFF_CQ_RING), "the completion ring", ringAddress,
                ringLength);
        }
        sqesLength = SQE_SIZE * sqCount;
        sqesAddress = mapped(calls.mapShared(sqesLength, fd, OFF_SQES), "the submission entries", ringAddress,
            ringLength, cqRingAddress, cqRingLength);
        sqRing = MemorySegment.ofAddress(ringAddress).reinterpret(single ? ringLength : sqSize);
        cqRing = MemorySegment.ofAddress(cqRingAddress).reinterpret(cqSize);
        sqes = MemorySegment.ofAddress(sqesAddress).reinterpret(sqesLength);
        sqHead = Integer.toUnsignedLong(params.get(JAVA_INT, 40));
        sqTail = Integer.toUnsignedLong(params.get(JAVA_INT, 44));
        sqMask = sqRing.get(JAVA_INT, Integer.toUnsignedLong(params.get(JAVA_INT, 48)));
        sqEntries = sqRing.get(JAVA_INT, Integer.toUnsignedLong(params.get(JAVA_INT, 52)));
        cqHead = Integer.toUnsignedLong(params.get(JAVA_INT, 80));
        cqTail = Integer.toUnsignedLong(params.get(JAVA_INT, 84));
        cqMask = cqRing.get(JAVA_INT, Integer.toUnsignedLong(params.get(JAVA_INT, 88)));
        cqes = cqCqes;
        // Entries are used in ring order, so the indirection array maps each slot to itself, once for all.
        for (int i = 0; i < sqEntries; i++)
        {
            sqRing.set(JAVA_INT, sqArray + 4L * i, i);
        }
        tail = (int)INT.getAcquire(sqRing, sqTail);
        // struct io_uring_getevents_arg (24 bytes), then the struct __kernel_timespec it points to.
        waitArg = arena.allocate(40, 8);
        waitArg.set(JAVA_LONG, 16, waitArg.address() + 24);
    }

    /**
     * A mapping's address, or on failure the ring closed, with what was mapped before it (address and length
     * pairs; a length of 0 is no mapping of its own).
     */
    private long mapped(final long address, final String what, final long... mappedBefore)
    {
        if (address < 0)
        {
            for (int i = 0; i < mappedBefore.length; i += 2)
            {
                if (mappedBefore[i + 1] != 0)
                {
                    calls.unmap(mappedBefore[i], mappedBefore[i + 1]);
                }
            }
            calls.close(fd);
            throw new IllegalStateException("could not map " + what + " of an io_uring: " + Errno.name((int)address));
        }
        return address;
    }

    /**
     * A ring for the calling thread, which alone may use it.
     *
     * @param arena   where its small scratch lives; it must outlive the ring.
     * @param calls   the thread's calls.
     * @param entries submission entries, a power of two up to 32,768; the completion ring gets four times as
     *                many, since a multishot operation completes many times.
     * @return the ring.
     * @throws IllegalStateException when the kernel refuses an io_uring (see {@link #unavailable}).
     */
    public static IoUring open(final Arena arena, final UringCalls calls, final int entries)
    {
        // From the newest way down: the flags a kernel does not know make it answer EINVAL.
        return open(arena, calls, entries,
            SETUP_CQSIZE | SETUP_SUBMIT_ALL | SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN,
            SETUP_CQSIZE | SETUP_SUBMIT_ALL | SETUP_COOP_TASKRUN,
            SETUP_CQSIZE);
    }

    /**
     * A ring made on one thread for another, that owns it from its first use on: made disabled, with
     * {@code SINGLE_ISSUER} and {@code DEFER_TASKRUN}, until {@link #enableForThisThread} (a selector opened on
     * one thread and selected on another). Where the kernel lacks them (before 6.1), a ring that any one thread
     * at a time may use, handed from thread to thread with a happens-before edge ({@code COOP_TASKRUN}: completion
     * work runs when the using thread next enters the kernel), whose enabling does nothing.
     *
     * @param arena   where its small scratch lives; it must outlive the ring.
     * @param calls   the calls of the thread that will own it.
     * @param entries submission entries, as {@link #open(Arena, UringCalls, int)}.
     * @return the ring.
     * @throws IllegalStateException when the kernel refuses an io_uring.
     */
    public static IoUring openForFirstUser(final Arena arena, final UringCalls calls, final int entries)
    {
        return open(arena, calls, entries,
            SETUP_CQSIZE | SETUP_SUBMIT_ALL | SETUP_R_DISABLED | SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN,
            SETUP_CQSIZE | SETUP_SUBMIT_ALL | SETUP_COOP_TASKRUN,
            SETUP_CQSIZE);
    }

    /**
     * Enables a ring made disabled, making the calling thread its only submitter; nothing for a ring made
     * enabled. Registrations (a buffer ring's) may come before; submissions only after.
     *
     * @return 0, or -errno.
     */
    public int enableForThisThread()
    {
        if (!disabled)
        {
            return 0;
        }
        final int result = calls.register(fd, REGISTER_ENABLE_RINGS, 0L, 0);
        if (result == 0)
        {
            disabled = false;
        }
        return result;
    }

    /**
     * Whether a thread must still enable it ({@link #enableForThisThread}) before it submits.
     *
     * @return true for a ring made disabled and not yet enabled.
     */
    public boolean disabled()
    {
        return disabled;
    }

    /**
     * Whether only one thread, the one that enabled it or made it, may submit to it ({@code SINGLE_ISSUER}).
     *
     * @return true on kernels from 6.0.
     */
    public boolean singleIssuer()
    {
        return (setupFlags & SETUP_SINGLE_ISSUER) != 0;
    }

    private static IoUring open(final Arena arena, final UringCalls calls, final int entries, final int... tries)
    {
        if (entries < 1 || entries > 32_768 || Integer.bitCount(entries) != 1)
        {
            throw new IllegalArgumentException("entries must be a power of two from 1 to 32768: " + entries);
        }
        final MemorySegment params = arena.allocate(PARAMS_SIZE, 8);
        int result = -Errno.EINVAL;
        for (final int flags : tries)
        {
            params.fill((byte)0);
            params.set(JAVA_INT, 4, entries * 4);
            params.set(JAVA_INT, 8, flags);
            result = calls.setup(entries, params.address());
            if (result >= 0)
            {
                return new IoUring(calls, arena, result, flags, params);
            }
            if (result != -Errno.EINVAL)
            {
                break;
            }
        }
        throw new IllegalStateException("the kernel refused an io_uring: " + reason(result));
    }

    /**
     * Why an io_uring cannot be used here, found by making one and closing it.
     *
     * @return null when it can; else the reason, for a message that falls back to epoll.
     */
    public static String unavailable()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final UringCalls calls = new UringCalls(arena);
            try (IoUring ring = open(arena, calls, 2))
            {
                return (ring.features & FEAT_NODROP) == 0 ? "the kernel's io_uring is too old (no NODROP, before 5.5)"
                    : null;
            }
        }
        catch (final IllegalStateException | UnsatisfiedLinkError e)
        {
            return e.getMessage();
        }
    }

    private static String reason(final int result)
    {
        if (result == -Errno.ENOSYS)
        {
            return "ENOSYS (a kernel without io_uring)";
        }
        if (result == -Errno.EPERM)
        {
            return "EPERM (disabled: kernel.io_uring_disabled, or a seccomp filter such as a container's)";
        }
        return Errno.name(result);
    }

    /**
     * The flags it was made with.
     *
     * @return {@code IORING_SETUP_*} or'ed.
     */
    public int setupFlags()
    {
        return setupFlags;
    }

    /**
     * Whether completions are produced only when the owner enters the ring ({@code DEFER_TASKRUN}).
     *
     * @return true on kernels from 6.1.
     */
    public boolean defersTaskRun()
    {
        return (setupFlags & SETUP_DEFER_TASKRUN) != 0;
    }

    /**
     * Submission entries prepared and not yet submitted.
     *
     * @return from 0 to the ring's size.
     */
    public int prepared()
    {
        return prepared;
    }

    private boolean prepare(final byte op, final int descriptor, final long address, final int length,
        final long offset, final int opFlags, final short ioprio, final byte sqeFlags, final short bufferGroup,
        final long userData)
    {
        final int head = (int)INT.getAcquire(sqRing, sqHead);
        if (tail - head >= sqEntries)
        {
            return false;
        }
        final long at = SQE_SIZE * (tail & sqMask);
        sqes.set(JAVA_BYTE, at, op);
        sqes.set(JAVA_BYTE, at + 1, sqeFlags);
        sqes.set(JAVA_SHORT, at + 2, ioprio);
        sqes.set(JAVA_INT, at + 4, descriptor);
        sqes.set(JAVA_LONG, at + 8, offset);
        sqes.set(JAVA_LONG, at + 16, address);
        sqes.set(JAVA_INT, at + 24, length);
        sqes.set(JAVA_INT, at + 28, opFlags);
        sqes.set(JAVA_LONG, at + 32, userData);
        sqes.set(JAVA_SHORT, at + 40, bufferGroup);
        sqes.set(JAVA_SHORT, at + 42, (short)0);
        sqes.set(JAVA_INT, at + 44, 0);
        sqes.set(JAVA_LONG, at + 48, 0L);
        sqes.set(JAVA_LONG, at + 56, 0L);
        tail++;
        prepared++;
        return true;
    }

    /**
     * Prepares an operation that does nothing but complete.
     *
     * @param userData what its completion carries.
     * @return false when the submission ring is full: {@link #submit} first.
     */
    public boolean nop(final long userData)
    {
        return prepare(OP_NOP, -1, 0L, 0, 0L, 0, (short)0, (byte)0, (short)0, userData);
    }

    /**
     * Prepares an accept that stays armed: one completion per connection accepted, its result the new
     * descriptor (non-blocking, close-on-exec), while {@link #CQE_F_MORE} is set.
     *
     * @param listener the listening socket.
     * @param userData what each completion carries.
     * @return false when the submission ring is full.
     */
    public boolean acceptMultishot(final int listener, final long userData)
    {
        return prepare(OP_ACCEPT, listener, 0L, 0, 0L, Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC, ACCEPT_MULTISHOT,
            (byte)0, (short)0, userData);
    }

    /**
     * Prepares a poll of a descriptor's readiness: one completion, its result the {@code POLL*} events ready, or
     * with {@code multishot} one completion per wake-up while {@link #CQE_F_MORE} is set.
     *
     * @param descriptor the descriptor.
     * @param events     {@link #POLLIN}, {@link #POLLOUT}, or both.
     * @param multishot  whether it stays armed.
     * @param userData   what each completion carries.
     * @return false when the submission ring is full.
     */
    public boolean poll(final int descriptor, final int events, final boolean multishot, final long userData)
    {
        return prepare(OP_POLL_ADD, descriptor, 0L, multishot ? POLL_ADD_MULTI : 0, 0L, events, (short)0, (byte)0,
            (short)0, userData);
    }

    /**
     * Prepares a receive that stays armed and takes each time a buffer of a {@link BufferRing}: one completion per
     * read, its result the bytes read (0 at the end of the stream), its buffer id in its flags ({@link
     * #bufferId}), while {@link #CQE_F_MORE} is set. When the group has no free buffer it ends with -ENOBUFS, to
     * be armed again once buffers are given back.
     *
     * @param socket   the connected socket.
     * @param group    the buffer ring's group id.
     * @param userData what each completion carries.
     * @return false when the submission ring is full.
     */
    public boolean receiveMultishot(final int socket, final short group, final long userData)
    {
        return prepare(OP_RECV, socket, 0L, 0, 0L, 0, RECV_MULTISHOT, SQE_BUFFER_SELECT, group, userData);
    }

    /**
     * Prepares one receive into a given buffer.
     *
     * @param socket   the connected socket.
     * @param address  the buffer's address.
     * @param length   its length.
     * @param userData what the completion carries.
     * @return false when the submission ring is full.
     */
    public boolean receive(final int socket, final long address, final int length, final long userData)
    {
        return prepare(OP_RECV, socket, address, length, 0L, 0, (short)0, (byte)0, (short)0, userData);
    }

    /**
     * Prepares a send ({@code MSG_NOSIGNAL}: a closed peer is an error, not a signal). Its result is the bytes
     * sent, which may be fewer than asked.
     *
     * @param socket   the connected socket.
     * @param address  the bytes' address; they must stay put until the completion.
     * @param length   how many.
     * @param userData what the completion carries.
     * @return false when the submission ring is full.
     */
    public boolean send(final int socket, final long address, final int length, final long userData)
    {
        return prepare(OP_SEND, socket, address, length, 0L, Net.MSG_NOSIGNAL, (short)0, (byte)0, (short)0, userData);
    }

    /**
     * Prepares a close of a descriptor.
     *
     * @param descriptor the descriptor.
     * @param userData   what the completion carries.
     * @return false when the submission ring is full.
     */
    public boolean close(final int descriptor, final long userData)
    {
        return prepare(OP_CLOSE, descriptor, 0L, 0, 0L, 0, (short)0, (byte)0, (short)0, userData);
    }

    /**
     * Prepares the cancellation of an operation in flight (an armed multishot receive, say): it completes with
     * -ECANCELED, and this one with 0, or -ENOENT when none had that user data.
     *
     * @param target   the operation's user data.
     * @param userData what this cancellation's completion carries.
     * @return false when the submission ring is full.
     */
    public boolean cancel(final long target, final long userData)
    {
        return prepare(OP_ASYNC_CANCEL, -1, target, 0, 0L, 0, (short)0, (byte)0, (short)0, userData);
    }

    /**
     * Submits what was prepared and, with {@code DEFER_TASKRUN}, lets the kernel post what has completed: one
     * system call, or none when nothing is prepared and nothing can be pending.
     *
     * @return entries submitted, or -errno ({@code -EINTR}, {@code -EBUSY} when completions must be reaped first).
     */
    public int submit()
    {
        return enter(0, 0);
    }

    /**
     * Submits what was prepared and waits for completions.
     *
     * @param minComplete completions to wait for.
     * @param timeoutNanos the longest wait; 0 or less for none (until {@code minComplete} complete).
     * @return entries submitted, or -errno ({@code -ETIME} when the time ran out).
     */
    public int submitAndWait(final int minComplete, final long timeoutNanos)
    {
        return enter(minComplete, timeoutNanos);
    }

    private int enter(final int minComplete, final long timeoutNanos)
    {
        final int count = prepared;
        // Entries written before the tail is published: the kernel reads the tail with acquire.
        INT.setRelease(sqRing, sqTail, tail);
        int flags = ENTER_GETEVENTS;
        long arg = 0L;
        long argSize = 0L;
        if (timeoutNanos > 0 && minComplete > 0 && (features & FEAT_EXT_ARG) != 0)
        {
            waitArg.set(JAVA_LONG, 24, timeoutNanos / 1_000_000_000L);
            waitArg.set(JAVA_LONG, 32, timeoutNanos % 1_000_000_000L);
            flags |= ENTER_EXT_ARG;
            arg = waitArg.address();
            argSize = 24;
        }
        final int submitted = calls.enter(fd, count, minComplete, flags, arg, argSize);
        if (submitted > 0)
        {
            prepared -= submitted;
        }
        return submitted;
    }

    /**
     * Hands every completion posted so far to a handler, in order, and frees their places.
     *
     * @param handler told of each.
     * @return how many.
     */
    public int complete(final CompletionHandler handler)
    {
        int head = cqRing.get(JAVA_INT, cqHead);
        final int end = (int)INT.getAcquire(cqRing, cqTail);
        final int count = end - head;
        while (head != end)
        {
            final long at = cqes + CQE_SIZE * (head & cqMask);
            final long userData = cqRing.get(JAVA_LONG, at);
            final int result = cqRing.get(JAVA_INT, at + 8);
            final int flags = cqRing.get(JAVA_INT, at + 12);
            head++;
            // Freed before the handler runs: what it prepares may complete into this place.
            INT.setRelease(cqRing, cqHead, head);
            handler.complete(userData, result, flags);
        }
        return count;
    }

    /**
     * The provided buffer a completion used.
     *
     * @param flags the completion's flags, with {@link #CQE_F_BUFFER} set.
     * @return the buffer's id in its {@link BufferRing}.
     */
    public static int bufferId(final int flags)
    {
        return flags >>> CQE_BUFFER_SHIFT;
    }

    int descriptor()
    {
        return fd;
    }

    UringCalls calls()
    {
        return calls;
    }

    /**
     * Unmaps the rings and closes the ring; operations still in flight are cancelled by the kernel.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        calls.unmap(sqesAddress, sqesLength);
        if (cqRingLength != 0)
        {
            calls.unmap(cqRingAddress, cqRingLength);
        }
        calls.unmap(ringAddress, ringLength);
        calls.close(fd);
    }
}
