package io.celer.linux.nio;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;

/**
 * The native addresses of direct buffers, remembered per thread. {@link MemorySegment#ofBuffer} makes a segment
 * object each call, which the JIT does not always scalar-replace, and the buffer's own address field is not
 * reachable without opening {@code java.base}; a reactor reads and writes the same pooled buffers over and over,
 * so a table keyed by identity answers without allocating once each buffer has been seen (a buffer seen for the
 * first time costs one weak reference). Four slots per hash, so that buffers whose hashes collide do not evict
 * each other in turn. Weak entries: the table never keeps a buffer, or its native memory, alive.
 */
final class BufferAddresses
{
    private static final int SLOTS = 1024;
    private static final int WAYS = 4;

    @SuppressWarnings("unchecked")
    private final WeakReference<ByteBuffer>[] buffers = new WeakReference[SLOTS];
    private final long[] bases = new long[SLOTS];
    private int nextVictim;

    /**
     * The address of a direct buffer's position.
     *
     * @param buffer a direct buffer.
     * @return its address plus its position.
     */
    long address(final ByteBuffer buffer)
    {
        final int first = System.identityHashCode(buffer) & (SLOTS - WAYS);
        int free = -1;
        for (int slot = first; slot < first + WAYS; slot++)
        {
            final WeakReference<ByteBuffer> entry = buffers[slot];
            if (entry == null)
            {
                free = free < 0 ? slot : free;
            }
            else if (entry.refersTo(buffer))
            {
                return bases[slot] + buffer.position();
            }
            else if (free < 0 && entry.refersTo(null))
            {
                free = slot;
            }
        }
        final int slot = free >= 0 ? free : first + (nextVictim++ & (WAYS - 1));
        final long base = MemorySegment.ofBuffer(buffer).address() - buffer.position();
        buffers[slot] = new WeakReference<>(buffer);
        bases[slot] = base;
        return base + buffer.position();
    }
}
