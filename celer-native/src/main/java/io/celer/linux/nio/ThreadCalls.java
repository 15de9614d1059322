package io.celer.linux.nio;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
    /** A {@code struct sockaddr_in} or {@code sockaddr_in6}. */
    final MemorySegment address;
    /** A {@code socklen_t}, then an option's value and length. */
    final MemorySegment scratch;
    final ByteBuffer bounce;
    final long bounceAddress;
    final BufferAddresses addresses = new BufferAddresses();

    private ThreadCalls()
    {
        final Arena arena = Arena.ofAuto();
        // errno's place, for the calls that go through the C library: in the global arena, whose segments a call
        // need not keep alive. A few bytes per thread, never freed.
        this.calls = new Syscalls(Arena.global());
        this.address = arena.allocate(Net.SOCKADDR_IN6_SIZE, 8);
        this.scratch = arena.allocate(16, 8);
        final MemorySegment bounceSegment = arena.allocate(BOUNCE_SIZE, 64);
        this.bounce = bounceSegment.asByteBuffer();
        this.bounceAddress = bounceSegment.address();
    }

    static ThreadCalls current()
    {
        return CURRENT.get();
    }
}
