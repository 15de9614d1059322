package io.celer.http;

import java.nio.ByteBuffer;

/**
 * Direct buffers of one size, lent to connections only while they hold a message in progress, so that idle
 * connections hold none; reactor thread only. Buffers are made on first need and kept: after warm-up, taking and
 * giving back allocate nothing.
 */
final class BufferStack
{
    private final int bufferSize;
    private final ByteBuffer[] free;
    private int count;

    /**
     * @param bufferSize each buffer's capacity.
     * @param maxKept    how many given back are kept; one per connection that may borrow suffices.
     */
    BufferStack(final int bufferSize, final int maxKept)
    {
        this.bufferSize = bufferSize;
        this.free = new ByteBuffer[Math.max(1, maxKept)];
    }

    /** Each buffer's capacity. */
    int bufferSize()
    {
        return bufferSize;
    }

    /** A cleared buffer, the most recently given back (warm in the cache) when there is one. */
    ByteBuffer take()
    {
        if (count == 0)
        {
            return ByteBuffer.allocateDirect(bufferSize);
        }
        final ByteBuffer buffer = free[--count];
        free[count] = null;
        buffer.clear();
        return buffer;
    }

    /** Takes a buffer back; past the bound it is left to the collector. */
    void give(final ByteBuffer buffer)
    {
        if (count < free.length)
        {
            free[count++] = buffer;
        }
    }

    /** Buffers kept for the next borrowers. */
    int kept()
    {
        return count;
    }
}
