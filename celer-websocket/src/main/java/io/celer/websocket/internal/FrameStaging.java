package io.celer.websocket.internal;

import java.nio.ByteBuffer;

/**
 * The buffer in which a thread's sessions encode a frame before it is copied into the connection's write buffer,
 * one per thread and shared by every session that thread runs: a frame lives in it only from its encoding to the
 * copy, so one buffer serves them all, where one per session would hold a write buffer's worth of idle memory per
 * connection. Looked up once per session when it opens, never per message.
 */
final class FrameStaging
{
    private static final ThreadLocal<ByteBuffer> BUFFERS = new ThreadLocal<>();

    private FrameStaging()
    {
    }

    /**
     * This thread's staging buffer, grown to hold at least a capacity; a session keeps what it got, so a larger
     * one made later for another session does not disturb it.
     *
     * @param capacity the bytes needed: the connection's write buffer capacity.
     * @return a direct buffer of at least that capacity.
     */
    static ByteBuffer forCurrentThread(final int capacity)
    {
        ByteBuffer buffer = BUFFERS.get();
        if (buffer == null || buffer.capacity() < capacity)
        {
            buffer = ByteBuffer.allocateDirect(capacity);
            BUFFERS.set(buffer);
        }
        return buffer;
    }
}
