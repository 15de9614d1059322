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

    /**
     * Receives into a buffer and advances its position: straight into a direct buffer's memory, through the
     * bounce memory into a heap buffer.
     *
     * @param sender       where the sender's {@code sockaddr} goes, or 0 for none.
     * @param senderLength the address of its room, then its length; or 0.
     * @return bytes received, 0 at a stream's end, or -errno.
     */
    long receive(final int fd, final ByteBuffer destination, final long sender, final long senderLength)
    {
        final int room = destination.remaining();
        if (destination.isDirect())
        {
            final long received = calls.receiveFrom(fd, addresses.address(destination), room, 0, sender,
                senderLength);
            if (received > 0)
            {
                destination.position(destination.position() + (int)received);
            }
            return received;
        }
        final long received = calls.receiveFrom(fd, bounceAddress, Math.min(room, BOUNCE_SIZE), 0, sender,
            senderLength);
        if (received > 0)
        {
            destination.put(bounce.clear().limit((int)received));
        }
        return received;
    }

    /**
     * Sends from a buffer and advances its position past what went: straight from a direct buffer's memory,
     * through the bounce memory from a heap buffer. With {@code MSG_NOSIGNAL}, so a closed peer is an error, not a
     * signal.
     *
     * @param target       a {@code sockaddr}'s address, or 0 on a connected socket.
     * @param targetLength its length, or 0.
     * @return bytes sent, or -errno.
     */
    long send(final int fd, final ByteBuffer source, final long target, final int targetLength)
    {
        final int length = source.remaining();
        final long sent;
        if (source.isDirect())
        {
            sent = calls.sendTo(fd, addresses.address(source), length, Net.MSG_NOSIGNAL, target, targetLength);
        }
        else
        {
            final int chunk = Math.min(length, BOUNCE_SIZE);
            bounce.clear().put(0, source, source.position(), chunk);
            sent = calls.sendTo(fd, bounceAddress, chunk, Net.MSG_NOSIGNAL, target, targetLength);
        }
        if (sent > 0)
        {
            source.position(source.position() + (int)sent);
        }
        return sent;
    }

    static ThreadCalls current()
    {
        return CURRENT.get();
    }
}
