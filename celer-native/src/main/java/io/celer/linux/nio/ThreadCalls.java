package io.celer.linux.nio;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;

import io.celer.linux.Net;
import io.celer.linux.Syscalls;

/**
 * A thread's system calls and scratch memory: each thread captures its own {@code errno}, and a channel may be
 * used from the thread that made it before a reactor's takes over. Made once per thread, so a call allocates
 * nothing.
 */
final class ThreadCalls
{
    /** Heap buffers pass through this much native memory per call, as the JDK's own channels do. */
    static final int BOUNCE_SIZE = 64 * 1024;

    private static final ThreadLocal<ThreadCalls> CURRENT = ThreadLocal.withInitial(ThreadCalls::new);

    final Syscalls calls;
    /** A {@code struct sockaddr_in}. */
    final MemorySegment address;
    /** A {@code socklen_t}, then an option's value and length. */
    final MemorySegment scratch;
    final ByteBuffer bounce;
    final long bounceAddress;
    final BufferAddresses addresses = new BufferAddresses();
    private final MethodHandle read;
    private final MethodHandle send;

    private ThreadCalls()
    {
        final Arena arena = Arena.ofAuto();
        // errno's place is the one segment a call takes as a segment, not an address: in the global arena, whose
        // segments a call need not keep alive, the JIT removes the slice each call makes of it, which it does not
        // reliably do for an automatic or shared arena's. A few bytes per thread, never freed.
        this.calls = new Syscalls(Arena.global());
        this.address = arena.allocate(Net.SOCKADDR_IN_SIZE, 8);
        this.scratch = arena.allocate(16, 8);
        final MemorySegment bounceSegment = arena.allocate(BOUNCE_SIZE, 64);
        this.bounce = bounceSegment.asByteBuffer();
        this.bounceAddress = bounceSegment.address();
        this.read = apart(calls, "read", MethodType.methodType(long.class, int.class, long.class, long.class));
        this.send = apart(calls, "send",
            MethodType.methodType(long.class, int.class, long.class, long.class, int.class));
    }

    /**
     * A handle on one of the calls, bound to this thread's: invoked through it, a call is never inlined into its
     * caller, since the JIT inlines only constant handles. Why: a downcall that captures {@code errno} slices
     * errno's segment each call, an allocation the JIT's escape analysis removes in a small compiled method but
     * not reliably once the call is inlined deep into a reactor's loop, which is too large for it. Kept apart, the
     * read and the send allocate nothing; the price is one call, against the system call's microsecond.
     */
    static MethodHandle apart(final Object receiver, final String name, final MethodType type)
    {
        try
        {
            return MethodHandles.publicLookup().findVirtual(receiver.getClass(), name, type).bindTo(receiver);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * What a handle's {@code invokeExact}, which declares {@code Throwable}, threw: an unchecked one as it is,
     * anything else wrapped (these handles' targets throw nothing checked).
     */
    static RuntimeException unchecked(final Throwable t)
    {
        if (t instanceof Error error)
        {
            throw error;
        }
        return t instanceof RuntimeException runtime ? runtime : new IllegalStateException(t);
    }

    long read(final int fd, final long address, final long length)
    {
        try
        {
            return (long)read.invokeExact(fd, address, length);
        }
        catch (final Throwable t)
        {
            throw unchecked(t);
        }
    }

    long send(final int fd, final long address, final long length, final int flags)
    {
        try
        {
            return (long)send.invokeExact(fd, address, length, flags);
        }
        catch (final Throwable t)
        {
            throw unchecked(t);
        }
    }

    static ThreadCalls current()
    {
        return CURRENT.get();
    }
}
