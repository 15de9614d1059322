package io.celer.examples.websocket;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.websocket.WebSocket;

/**
 * A connection's echoes that did not go out at once: messages larger than a frame the write buffer holds (sent
 * as fragments), and those that met a full write buffer. While it holds any, the connection is not read, so it
 * holds at most one reassembled message and what the last read had already brought; it grows to that while
 * warming up and then allocates nothing.
 */
final class EchoBacklog
{
    private static final int RECORD_HEADER = 5;
    private static final int MAX_FRAME_HEADER = 14;

    private ByteBuffer pending = ByteBuffer.allocate(0);
    private ByteBuffer view = pending.duplicate();
    private int readAt;
    private int fragmentOffset;
    private boolean paused;

    /**
     * Echoes a message now if it fits, else queues it and sends it as the peer reads.
     *
     * @param socket  the WebSocket.
     * @param message the payload, between position and limit; consumed.
     * @param text    a text message, else binary.
     */
    void echo(final WebSocket socket, final ByteBuffer message, final boolean text)
    {
        if (readAt == pending.position() && message.remaining() <= wholeLimit(socket))
        {
            final int at = message.position();
            if (text ? socket.sendText(message) : socket.sendBinary(message))
            {
                return;
            }
            message.position(at);
        }
        append(message, text);
        if (!paused)
        {
            paused = true;
            socket.connection().pauseReads();
        }
        drain(socket);
    }

    /**
     * Sends what the write buffer takes; resumes reading once everything went.
     *
     * @param socket the WebSocket.
     */
    void drain(final WebSocket socket)
    {
        final int whole = wholeLimit(socket);
        final int fragment = Math.max(1, socket.connection().writeBufferCapacity() / 4);
        while (readAt < pending.position())
        {
            final boolean text = pending.get(readAt) != 0;
            final int length = pending.getInt(readAt + 1);
            final int start = readAt + RECORD_HEADER;
            if (length <= whole && fragmentOffset == 0)
            {
                if (!(text ? socket.sendText(slice(start, length)) : socket.sendBinary(slice(start, length))))
                {
                    return; // writable() calls again
                }
            }
            else
            {
                while (fragmentOffset < length)
                {
                    final int chunk = Math.min(fragment, length - fragmentOffset);
                    final boolean last = fragmentOffset + chunk == length;
                    if (!socket.sendFragment(slice(start + fragmentOffset, chunk), text, last))
                    {
                        return;
                    }
                    fragmentOffset += chunk;
                }
                fragmentOffset = 0;
            }
            readAt = start + length;
        }
        pending.clear();
        readAt = 0;
        if (paused)
        {
            paused = false;
            final Connection connection = socket.connection();
            if (connection.isOpen())
            {
                connection.resumeReads();
            }
        }
    }

    private static int wholeLimit(final WebSocket socket)
    {
        return socket.connection().writeBufferCapacity() - MAX_FRAME_HEADER;
    }

    private ByteBuffer slice(final int start, final int length)
    {
        view.clear();
        view.position(start);
        view.limit(start + length);
        return view;
    }

    private void append(final ByteBuffer message, final boolean text)
    {
        final int needed = RECORD_HEADER + message.remaining();
        if (pending.remaining() < needed)
        {
            // Grows while warming up to the largest backlog seen, then never again.
            final ByteBuffer grown = ByteBuffer.allocate(Math.max(pending.capacity() * 2, pending.position() + needed));
            pending.flip();
            grown.put(pending);
            pending = grown;
            view = pending.duplicate();
        }
        pending.put((byte)(text ? 1 : 0)).putInt(message.remaining()).put(message);
    }
}
