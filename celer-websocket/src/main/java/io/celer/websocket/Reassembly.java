package io.celer.websocket;

import java.nio.ByteBuffer;

/**
 * A session's data message put together from its chunks. The buffer is made at the first data message, not with
 * the session: a feed's clients send none, and a server of thousands of them would otherwise hold an idle buffer
 * each. It grows while warming up to the largest message seen, then is reused; reactor thread only.
 */
final class Reassembly
{
    private final int initialSize;
    private final int maxLength;
    private ByteBuffer message;

    /**
     * An empty reassembly, holding no buffer yet.
     *
     * @param initialSize the buffer's first size.
     * @param maxLength   the largest message.
     */
    Reassembly(final int initialSize, final int maxLength)
    {
        this.initialSize = initialSize;
        this.maxLength = maxLength;
    }

    /**
     * Forgets what was appended, for the next message.
     */
    void clear()
    {
        if (message != null)
        {
            message.clear();
        }
    }

    /**
     * Appends a chunk.
     *
     * @param chunk the bytes between position and limit; position moves to limit.
     * @return false, appending nothing, when the message would pass the largest.
     */
    boolean append(final ByteBuffer chunk)
    {
        if (!ensureRoom(chunk.remaining()))
        {
            return false;
        }
        message.put(chunk);
        return true;
    }

    /**
     * The message appended so far, flipped for reading; {@link #clear()} before the next.
     *
     * @return the buffer, from 0 to the message's length.
     */
    ByteBuffer complete()
    {
        return message.flip();
    }

    private boolean ensureRoom(final int bytes)
    {
        if (message == null)
        {
            if (bytes > maxLength)
            {
                return false;
            }
            message = ByteBuffer.allocate(Math.max(bytes, initialSize));
            return true;
        }
        if (message.remaining() >= bytes)
        {
            return true;
        }
        final long needed = (long)message.position() + bytes;
        if (needed > maxLength)
        {
            return false;
        }
        // Grows while warming up to the largest message seen, then never again.
        final int capacity = (int)Math.min(maxLength, Math.max(needed, 2L * message.capacity()));
        final ByteBuffer grown = ByteBuffer.allocate(capacity);
        message.flip();
        grown.put(message);
        message = grown;
        return true;
    }
}
