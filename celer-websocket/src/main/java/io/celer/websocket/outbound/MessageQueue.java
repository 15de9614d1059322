package io.celer.websocket.outbound;

import java.nio.ByteBuffer;

/**
 * A bounded FIFO of whole messages (a kind and a payload each), bounded both in messages and in payload bytes;
 * for one thread.
 *
 * <p>Messages are copied, each behind a five-byte header (its length and kind), into fixed-size segments taken from
 * a {@link SegmentPool} as the queue grows and given back as soon as everything in them has been removed; each
 * message is contiguous in one segment so that it can be framed straight from there, and a message that does not
 * fit a segment's end starts the next one. A queue that is empty holds no storage; once the pool holds what the
 * busiest moment needed, offering and removing allocate nothing, and a pool capped in total refuses, as a full
 * queue does, a message for which it has no segment left. The storage held is at most the payload bound plus the
 * headers, about doubled in the worst mix of lengths, plus two segments. Agrona's ring buffers are for two threads
 * and cannot drop their oldest record from the producer's side, which is what a full queue here must do.
 */
final class MessageQueue
{
    /**
     * Bytes before each payload in a segment: its length (an int; -1 ends a segment), its kind, and when it was
     * queued (a long).
     */
    static final int HEADER = 13;
    private static final int TIME = 5;
    /** The largest segment chosen for a queue that is not told its segment size. */
    static final int DEFAULT_SEGMENT_SIZE = 64 * 1024;
    private static final int END = -1;

    private final int maxMessages;
    private final int maxBytes;
    private final int maxMessageLength;
    private final SegmentPool pool;
    private final int segmentSize;

    private SegmentPool.Segment[] segments = new SegmentPool.Segment[0];
    private int mask = -1;
    private int first;
    private int segmentCount;
    private int headOffset;
    private int tailOffset;
    private int count;
    private int bytes;

    /**
     * An empty queue with segments of its own, sized to its bounds; allocates nothing more until the first offer.
     *
     * @param maxMessages      the most messages held.
     * @param maxBytes         the most payload bytes held.
     * @param maxMessageLength the largest payload offered, at most {@code maxBytes}.
     */
    public MessageQueue(final int maxMessages, final int maxBytes, final int maxMessageLength)
    {
        this(maxMessages, maxBytes, maxMessageLength,
            new SegmentPool(segmentSizeFor(maxBytes, maxMessageLength), Long.MAX_VALUE));
    }

    /**
     * An empty queue whose segments come from a shared pool.
     *
     * @param pool segments of at least {@code maxMessageLength} plus {@link #HEADER} bytes.
     */
    MessageQueue(final int maxMessages, final int maxBytes, final int maxMessageLength, final SegmentPool pool)
    {
        if (maxMessages < 1 || maxBytes < 1 || maxMessageLength < 1 || maxMessageLength > maxBytes ||
            maxBytes > OutboundConfig.MAX_QUEUED_BYTES_LIMIT)
        {
            throw new IllegalArgumentException("bounds out of range: " + maxMessages + " messages, " + maxBytes +
                " bytes, messages up to " + maxMessageLength + " bytes");
        }
        if (pool.segmentSize() < maxMessageLength + HEADER)
        {
            throw new IllegalArgumentException("segments of " + pool.segmentSize() + " bytes below a message of " +
                maxMessageLength + " bytes and its header");
        }
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
        this.maxMessageLength = maxMessageLength;
        this.pool = pool;
        this.segmentSize = pool.segmentSize();
    }

    /**
     * The segment size for queues of these bounds: an eighth of the byte bound, so that a small queue holds little
     * more than its bound, up to {@link #DEFAULT_SEGMENT_SIZE}, and never below one message with its header.
     *
     * @param maxBytes         the byte bound.
     * @param maxMessageLength the largest message.
     * @return bytes.
     */
    static int segmentSizeFor(final int maxBytes, final int maxMessageLength)
    {
        return Math.max(maxMessageLength + HEADER, Math.min(DEFAULT_SEGMENT_SIZE, maxBytes / 8));
    }

    /**
     * Appends a copy of a message, unless that would pass a bound.
     *
     * @param kind    what the message is, kept with it (an opcode, say), as a byte.
     * @param payload the bytes between position and limit; position moves to limit when taken.
     * @return false, with nothing taken, when the queue has no room for it (or its pool no segment).
     * @throws IllegalArgumentException if the payload is larger than the largest message.
     */
    public boolean offer(final int kind, final ByteBuffer payload)
    {
        return offer(kind, payload, 0);
    }

    /**
     * Takes a message if it fits the bounds, with the time it was queued.
     *
     * @param kind        what the message is, as a byte.
     * @param payload     the bytes between position and limit; position moves to limit when taken.
     * @param queuedNanos when it was queued ({@code System.nanoTime()}), kept for {@link #peekQueuedNanos()}.
     * @return false, with nothing taken, when the queue has no room for it (or its pool no segment).
     */
    boolean offer(final int kind, final ByteBuffer payload, final long queuedNanos)
    {
        final int length = payload.remaining();
        if (length > maxMessageLength)
        {
            throw new IllegalArgumentException("a message of " + length + " bytes is above the largest of " +
                maxMessageLength);
        }
        if (count == maxMessages || length > maxBytes - bytes)
        {
            return false;
        }
        final int record = HEADER + length;
        if (segmentCount == 0 || segmentSize - tailOffset < record)
        {
            if (segmentCount == segments.length)
            {
                growRing();
            }
            final SegmentPool.Segment fresh = pool.acquire();
            if (fresh == null)
            {
                return false;
            }
            if (segmentCount > 0 && segmentSize - tailOffset >= HEADER)
            {
                segments[(first + segmentCount - 1) & mask].bytes.putInt(tailOffset, END);
            }
            segments[(first + segmentCount) & mask] = fresh;
            segmentCount++;
            tailOffset = 0;
        }
        final ByteBuffer tail = segments[(first + segmentCount - 1) & mask].bytes;
        tail.putInt(tailOffset, length);
        tail.put(tailOffset + 4, (byte)kind);
        tail.putLong(tailOffset + TIME, queuedNanos);
        tail.put(tailOffset + HEADER, payload, payload.position(), length);
        payload.position(payload.limit());
        tailOffset += record;
        count++;
        bytes += length;
        return true;
    }

    private void growRing()
    {
        // Grows to the most segments the bounds allow at once, then stays; only references are copied.
        final int size = segments.length == 0 ? 4 : segments.length * 2;
        final SegmentPool.Segment[] grown = new SegmentPool.Segment[size];
        for (int i = 0; i < segmentCount; i++)
        {
            grown[i] = segments[(first + i) & mask];
        }
        segments = grown;
        mask = size - 1;
        first = 0;
    }

    /**
     * Whether no message is queued.
     *
     * @return true when empty.
     */
    public boolean isEmpty()
    {
        return count == 0;
    }

    /**
     * The messages queued.
     *
     * @return the count.
     */
    public int size()
    {
        return count;
    }

    /**
     * The payload bytes queued.
     *
     * @return bytes.
     */
    public int bytes()
    {
        return bytes;
    }

    /**
     * The oldest message's kind.
     *
     * @return what {@link #offer} was given, as a byte.
     * @throws IllegalStateException when empty.
     */
    public int peekKind()
    {
        checkNotEmpty();
        return segments[first].bytes.get(headOffset + 4);
    }

    /**
     * The oldest message's payload length.
     *
     * @return bytes.
     * @throws IllegalStateException when empty.
     */
    public int peekLength()
    {
        checkNotEmpty();
        return segments[first].bytes.getInt(headOffset);
    }

    /**
     * When the oldest message was queued.
     *
     * @return its {@code System.nanoTime()} as offered.
     */
    long peekQueuedNanos()
    {
        checkNotEmpty();
        return segments[first].bytes.getLong(headOffset + TIME);
    }

    /**
     * The oldest message's payload, as a view valid until the queue next changes.
     *
     * @return a buffer whose bytes between position and limit are the payload.
     * @throws IllegalStateException when empty.
     */
    public ByteBuffer peek()
    {
        checkNotEmpty();
        final SegmentPool.Segment head = segments[first];
        final int start = headOffset + HEADER;
        final ByteBuffer view = head.view;
        view.clear();
        return view.limit(start + head.bytes.getInt(headOffset)).position(start);
    }

    /**
     * Removes the oldest message.
     *
     * @throws IllegalStateException when empty.
     */
    public void remove()
    {
        checkNotEmpty();
        final SegmentPool.Segment segment = segments[first];
        final ByteBuffer head = segment.bytes;
        final int length = head.getInt(headOffset);
        headOffset += HEADER + length;
        bytes -= length;
        if (--count == 0)
        {
            releaseAll();
        }
        else if (segmentCount > 1 && (segmentSize - headOffset < HEADER || head.getInt(headOffset) == END))
        {
            pool.release(segment);
            segments[first] = null;
            first = (first + 1) & mask;
            segmentCount--;
            headOffset = 0;
        }
    }

    /**
     * Removes every message; the storage goes back to the pool.
     */
    public void clear()
    {
        count = 0;
        bytes = 0;
        releaseAll();
    }

    private void releaseAll()
    {
        for (int i = 0; i < segmentCount; i++)
        {
            final int slot = (first + i) & mask;
            pool.release(segments[slot]);
            segments[slot] = null;
        }
        segmentCount = 0;
        first = 0;
        headOffset = 0;
        tailOffset = 0;
    }

    /**
     * The bytes of storage held now: none while empty.
     *
     * @return bytes.
     */
    public int storageCapacity()
    {
        return segmentCount * segmentSize;
    }

    /**
     * The most storage the bounds let the queue hold: every two segments in a row hold more than a segment of
     * messages and headers, and each holds at least one message.
     *
     * @return bytes.
     */
    long storageBound()
    {
        final long records = (long)maxBytes + (long)HEADER * Math.min(maxMessages, maxBytes + 1L);
        final long byBytes = 2 * ((records + segmentSize - 1) / segmentSize) + 2;
        return Math.min(maxMessages, byBytes) * (long)segmentSize;
    }

    private void checkNotEmpty()
    {
        if (count == 0)
        {
            throw new IllegalStateException("the queue is empty");
        }
    }

    @Override
    public String toString()
    {
        return "MessageQueue{" + count + "/" + maxMessages + " messages, " + bytes + "/" + maxBytes + " bytes, " +
            segmentCount + " segments}";
    }
}
