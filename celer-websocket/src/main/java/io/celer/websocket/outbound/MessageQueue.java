package io.celer.websocket.outbound;

import java.nio.ByteBuffer;

/**
 * A bounded FIFO of whole messages (a kind and a payload each), bounded both in messages and in payload bytes;
 * for one thread.
 *
 * <p>Payloads are copied into one byte ring, each message contiguous so that it can be framed straight from the
 * ring: a message that does not fit before the ring's end starts again at its beginning, leaving the end unused.
 * Storage is allocated on the first offer and doubles as needed, up to the byte bound plus one message (enough
 * for any mix of messages within the bounds to be laid out that way); the message index likewise grows to the
 * message bound. Once grown, offering and removing allocate nothing, and a queue that is never used costs no
 * storage at all. Agrona's ring buffers are for two threads and cannot drop their oldest record from the
 * producer's side, which is what a full queue here must do.
 */
public final class MessageQueue
{
    private static final int INITIAL_STORAGE = 16 * 1024;
    private static final int INITIAL_INDEX = 16;

    private final int maxMessages;
    private final int maxBytes;
    private final int storageLimit;

    private ByteBuffer storage;
    private ByteBuffer view;
    private int[] starts = new int[0];
    private int[] lengths = new int[0];
    private byte[] kinds = new byte[0];
    private int mask = -1;
    private int head;
    private int count;
    private int bytes;
    private int tail;

    /**
     * An empty queue; allocates only its index arrays' headers until the first offer.
     *
     * @param maxMessages      the most messages held.
     * @param maxBytes         the most payload bytes held.
     * @param maxMessageLength the largest payload offered, at most {@code maxBytes}.
     */
    public MessageQueue(final int maxMessages, final int maxBytes, final int maxMessageLength)
    {
        if (maxMessages < 1 || maxBytes < 1 || maxMessageLength < 1 || maxMessageLength > maxBytes ||
            maxBytes > OutboundConfig.MAX_QUEUED_BYTES_LIMIT)
        {
            throw new IllegalArgumentException("bounds out of range: " + maxMessages + " messages, " + maxBytes +
                " bytes, messages up to " + maxMessageLength + " bytes");
        }
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
        this.storageLimit = maxBytes + maxMessageLength;
    }

    /**
     * Appends a copy of a message, unless that would pass a bound.
     *
     * @param kind    what the message is, kept with it (an opcode, say).
     * @param payload the bytes between position and limit; position moves to limit when taken.
     * @return false, with nothing taken, when the queue has no room for it.
     * @throws IllegalArgumentException if the payload is larger than the largest message.
     */
    public boolean offer(final int kind, final ByteBuffer payload)
    {
        final int length = payload.remaining();
        if (length > storageLimit - maxBytes)
        {
            throw new IllegalArgumentException("a message of " + length + " bytes is above the largest of " +
                (storageLimit - maxBytes));
        }
        if (count == maxMessages || length > maxBytes - bytes)
        {
            return false;
        }
        int at;
        while ((at = place(length)) < 0)
        {
            if (storage != null && storage.capacity() == storageLimit)
            {
                return false; // the layout argument says this cannot happen within the bounds
            }
            growStorage();
        }
        if (count == starts.length)
        {
            growIndex();
        }
        storage.put(at, payload, payload.position(), length);
        payload.position(payload.limit());
        final int slot = (head + count) & mask;
        starts[slot] = at;
        lengths[slot] = length;
        kinds[slot] = (byte)kind;
        count++;
        bytes += length;
        tail = at + length;
        return true;
    }

    /**
     * Where a payload of that length goes, keeping every message contiguous.
     *
     * @return its first index, or -1 when the storage has no such room.
     */
    private int place(final int length)
    {
        if (storage == null)
        {
            return -1;
        }
        final int capacity = storage.capacity();
        if (count == 0)
        {
            return length <= capacity ? 0 : -1;
        }
        final int oldest = starts[head];
        if (tail >= oldest)
        {
            if (capacity - tail >= length)
            {
                return tail;
            }
            // Wrapping leaves a byte between the new tail and the oldest, so tail >= oldest keeps meaning unwrapped.
            return oldest > length ? 0 : -1;
        }
        return oldest - tail > length ? tail : -1;
    }

    private void growStorage()
    {
        final int capacity = storage == null ? Math.min(INITIAL_STORAGE, storageLimit) :
            (int)Math.min(storageLimit, 2L * storage.capacity());
        final ByteBuffer grown = ByteBuffer.allocate(capacity);
        // Lays the messages out again from index 0, in order: the grown ring starts unwrapped.
        int at = 0;
        for (int i = 0; i < count; i++)
        {
            final int slot = (head + i) & mask;
            grown.put(at, storage, starts[slot], lengths[slot]);
            starts[slot] = at;
            at += lengths[slot];
        }
        tail = at;
        storage = grown;
        view = grown.duplicate();
    }

    private void growIndex()
    {
        final int size = starts.length == 0 ? Math.min(INITIAL_INDEX, ceilingPowerOfTwo(maxMessages)) :
            starts.length * 2;
        final int[] newStarts = new int[size];
        final int[] newLengths = new int[size];
        final byte[] newKinds = new byte[size];
        for (int i = 0; i < count; i++)
        {
            final int slot = (head + i) & mask;
            newStarts[i] = starts[slot];
            newLengths[i] = lengths[slot];
            newKinds[i] = kinds[slot];
        }
        starts = newStarts;
        lengths = newLengths;
        kinds = newKinds;
        mask = size - 1;
        head = 0;
    }

    private static int ceilingPowerOfTwo(final int value)
    {
        return value <= 1 ? 1 : Integer.highestOneBit(value - 1) << 1;
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
     * @return what {@link #offer} was given.
     * @throws IllegalStateException when empty.
     */
    public int peekKind()
    {
        checkNotEmpty();
        return kinds[head];
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
        return lengths[head];
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
        final int start = starts[head];
        view.clear();
        return view.limit(start + lengths[head]).position(start);
    }

    /**
     * Removes the oldest message.
     *
     * @throws IllegalStateException when empty.
     */
    public void remove()
    {
        checkNotEmpty();
        bytes -= lengths[head];
        head = (head + 1) & mask;
        if (--count == 0)
        {
            tail = 0;
        }
    }

    /**
     * Removes every message; the storage stays for reuse.
     */
    public void clear()
    {
        head = 0;
        count = 0;
        bytes = 0;
        tail = 0;
    }

    /**
     * The bytes of storage allocated so far: none until the first offer, at most the byte bound plus one message.
     *
     * @return bytes.
     */
    public int storageCapacity()
    {
        return storage == null ? 0 : storage.capacity();
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
        return "MessageQueue{" + count + "/" + maxMessages + " messages, " + bytes + "/" + maxBytes + " bytes}";
    }
}
