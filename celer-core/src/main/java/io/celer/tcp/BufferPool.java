package io.celer.tcp;

import java.nio.ByteBuffer;

/**
 * Direct buffers of one size that closed connections gave back, lent again to the next ones; reactor thread
 * only, so a plain array stack. A fresh direct buffer costs a native allocation, its zeroing and a
 * {@code Cleaner}; a lent one costs a {@code clear()}. Past its bound a given-back buffer is left to the
 * collector, so the memory a burst of connections took goes back once it ends.
 */
final class BufferPool
{
    /** A closed connection's buffer: holds nothing and refuses every write, so a stale handle cannot write. */
    static final ByteBuffer NONE = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final int bufferSize;
    private final ByteBuffer[] free;
    private int count;
    private long made;
    private boolean keeping = true;

    /**
     * @param bufferSize each buffer's capacity.
     * @param maxKept    how many given-back buffers are kept; 0 keeps none.
     */
    BufferPool(final int bufferSize, final int maxKept)
    {
        this.bufferSize = bufferSize;
        this.free = new ByteBuffer[maxKept];
    }

    /**
     * A cleared buffer: the one given back last, still warm in the cache, or a new one.
     */
    ByteBuffer take()
    {
        if (count == 0)
        {
            made++;
            return ByteBuffer.allocateDirect(bufferSize);
        }
        final ByteBuffer buffer = free[--count];
        free[count] = null;
        buffer.clear();
        return buffer;
    }

    /**
     * Takes a buffer back from a connection that will never touch it again; {@link #NONE} is ignored.
     */
    void give(final ByteBuffer buffer)
    {
        if (buffer != NONE && keeping && count < free.length)
        {
            free[count++] = buffer;
        }
    }

    /**
     * Lets every kept buffer go, for the collector to free, and keeps none given back until {@link #keep}.
     */
    void drain()
    {
        keeping = false;
        while (count > 0)
        {
            free[--count] = null;
        }
    }

    /**
     * Keeps given-back buffers again, up to the bound.
     */
    void keep()
    {
        keeping = true;
    }

    /** Buffers kept for the next connections. */
    int kept()
    {
        return count;
    }

    /** Buffers allocated since the pool was made, kept ones included. */
    long made()
    {
        return made;
    }
}
