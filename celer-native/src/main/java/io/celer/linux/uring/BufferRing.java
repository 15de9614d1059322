package io.celer.linux.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import io.celer.linux.Errno;

/**
 * A ring of provided buffers registered with an {@link IoUring} ({@code IORING_REGISTER_PBUF_RING}, kernel 5.19):
 * a multishot receive takes a buffer from it for each read, so that thousands of armed connections share a few
 * buffers instead of holding one each. The owner reads a completion's bytes at {@link #address(int)} and gives the
 * buffer back with {@link #recycle(int)}; a group with no buffer left ends its receives with -ENOBUFS. Nothing is
 * allocated after construction.
 */
public final class BufferRing
{
    private static final int REGISTER_PBUF_RING = 22;
    private static final int UNREGISTER_PBUF_RING = 23;
    private static final long ENTRY_SIZE = 16;
    /** The ring's tail is the first entry's reserved field. */
    private static final long TAIL = 14;
    private static final VarHandle SHORT = JAVA_SHORT.varHandle();

    private final IoUring ring;
    private final short group;
    private final int count;
    private final int size;
    private final int mask;
    private final MemorySegment entries;
    private final MemorySegment buffers;
    private short tail;
    private boolean closed;

    /**
     * Registers a ring of buffers, every one of them given to the kernel.
     *
     * @param arena where the ring and its buffers live; it must outlive this.
     * @param ring  the io_uring, on its owning thread.
     * @param group the group id receives name.
     * @param count how many buffers, a power of two up to 32,768.
     * @param size  each buffer's size.
     * @throws IllegalStateException when the kernel refuses it (before 5.19).
     */
    public BufferRing(final Arena arena, final IoUring ring, final short group, final int count, final int size)
    {
        if (count < 1 || count > 32_768 || Integer.bitCount(count) != 1)
        {
            throw new IllegalArgumentException("count must be a power of two from 1 to 32768: " + count);
        }
        if (size < 1)
        {
            throw new IllegalArgumentException("size must be positive: " + size);
        }
        this.ring = ring;
        this.group = group;
        this.count = count;
        this.size = size;
        this.mask = count - 1;
        // The kernel maps the ring's pages: it must start on a page.
        this.entries = arena.allocate(ENTRY_SIZE * count, 4096);
        this.buffers = arena.allocate((long)size * count, 64);
        final MemorySegment registration = arena.allocate(40, 8);
        registration.set(JAVA_LONG, 0, entries.address());
        registration.set(JAVA_INT, 8, count);
        registration.set(JAVA_SHORT, 12, group);
        final int result = ring.calls().register(ring.descriptor(), REGISTER_PBUF_RING, registration.address(), 1);
        if (result < 0)
        {
            throw new IllegalStateException("the kernel refused a provided buffer ring: " + Errno.name(result));
        }
        for (int id = 0; id < count; id++)
        {
            put(id, id);
        }
        publish(count);
    }

    private void put(final int index, final int id)
    {
        final long at = ENTRY_SIZE * ((tail + index) & mask);
        entries.set(JAVA_LONG, at, buffers.address() + (long)size * id);
        entries.set(JAVA_INT, at + 8, size);
        entries.set(JAVA_SHORT, at + 12, (short)id);
    }

    private void publish(final int added)
    {
        tail += (short)added;
        // The entries before the tail that shows them: the kernel reads it with acquire.
        SHORT.setRelease(entries, TAIL, tail);
    }

    /**
     * Gives a buffer back to the kernel, once its bytes are read.
     *
     * @param id the id a completion named ({@link IoUring#bufferId}).
     */
    public void recycle(final int id)
    {
        put(0, id);
        publish(1);
    }

    /**
     * Where a buffer's bytes are.
     *
     * @param id its id.
     * @return its address.
     */
    public long address(final int id)
    {
        return buffers.address() + (long)size * id;
    }

    /**
     * The group id receives name.
     *
     * @return it.
     */
    public short group()
    {
        return group;
    }

    /**
     * Each buffer's size.
     *
     * @return bytes.
     */
    public int bufferSize()
    {
        return size;
    }

    /**
     * How many buffers.
     *
     * @return the count.
     */
    public int count()
    {
        return count;
    }

    /**
     * Unregisters the ring; its memory goes with its arena.
     */
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        // The kernel copies the struct and reads only the group id from it.
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment registration = arena.allocate(40, 8);
            registration.set(JAVA_SHORT, 12, group);
            ring.calls().register(ring.descriptor(), UNREGISTER_PBUF_RING, registration.address(), 1);
        }
    }
}
