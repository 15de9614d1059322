package io.celer.websocket.outbound;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Fixed-size storage segments for the message queues of one thread: a queue takes one as it grows and gives it back
 * as soon as it has read everything in it, so the clients that lag now share what earlier laggards used, and nothing
 * is allocated once the pool holds what the worst moment needed. Optionally capped in total, so that many slow
 * clients at once cannot take more memory than that, whatever their own bounds. Not thread-safe: the reactor's.
 */
final class SegmentPool
{
    private final int segmentSize;
    private final long maxTotalBytes;
    private Segment[] free = new Segment[16];
    private int freeCount;
    private long allocatedBytes;

    /**
     * An empty pool.
     *
     * @param segmentSize   bytes of every segment.
     * @param maxTotalBytes the most bytes of segments it ever allocates, in use or free.
     */
    SegmentPool(final int segmentSize, final long maxTotalBytes)
    {
        if (segmentSize < 1 || maxTotalBytes < segmentSize)
        {
            throw new IllegalArgumentException("segments of " + segmentSize + " bytes, " + maxTotalBytes +
                " bytes in all");
        }
        this.segmentSize = segmentSize;
        this.maxTotalBytes = maxTotalBytes;
    }

    /**
     * A free segment, allocated if none is free and the cap allows.
     *
     * @return a segment, or null when the cap is reached and none is free.
     */
    Segment acquire()
    {
        if (freeCount > 0)
        {
            final Segment segment = free[--freeCount];
            free[freeCount] = null;
            return segment;
        }
        if (allocatedBytes > maxTotalBytes - segmentSize)
        {
            return null;
        }
        final long segments = allocatedBytes / segmentSize + 1;
        if (segments > free.length)
        {
            // Room to take back every segment there is, grown only when one more is allocated: release never
            // allocates.
            free = Arrays.copyOf(free, (int)Math.min(Integer.MAX_VALUE - 8, 2L * segments));
        }
        allocatedBytes += segmentSize;
        return new Segment(ByteBuffer.allocate(segmentSize));
    }

    /**
     * Takes a segment back.
     *
     * @param segment one that {@link #acquire()} gave.
     */
    void release(final Segment segment)
    {
        free[freeCount++] = segment;
    }

    /**
     * Bytes of every segment.
     *
     * @return bytes.
     */
    int segmentSize()
    {
        return segmentSize;
    }

    /**
     * Bytes of segments allocated so far, in use or free.
     *
     * @return bytes.
     */
    long allocatedBytes()
    {
        return allocatedBytes;
    }

    /**
     * Bytes of segments free now.
     *
     * @return bytes.
     */
    long freeBytes()
    {
        return (long)freeCount * segmentSize;
    }

    /**
     * One segment: its bytes, written and read by index only, so that its limit never gets in the way, and a view
     * of them whose position and limit frame the message a queue hands out.
     */
    static final class Segment
    {
        final ByteBuffer bytes;
        final ByteBuffer view;

        Segment(final ByteBuffer bytes)
        {
            this.bytes = bytes;
            this.view = bytes.duplicate();
        }
    }
}
