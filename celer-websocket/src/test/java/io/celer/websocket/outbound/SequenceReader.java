package io.celer.websocket.outbound;

import java.nio.ByteBuffer;

import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * A well-behaved client's handler: reads each binary message's leading sequence number and counts the messages,
 * those out of order, and the gaps; garbage-free.
 */
final class SequenceReader implements WebSocketHandler
{
    volatile long received;
    volatile long outOfOrder;
    volatile boolean open;
    private long expected;

    @Override
    public void opened(final WebSocket socket)
    {
        open = true;
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        final long sequence = message.getLong(message.position());
        if (sequence != expected)
        {
            outOfOrder = outOfOrder + 1;
        }
        expected = sequence + 1;
        received = received + 1;
    }

    @Override
    public void closed(final WebSocket socket, final int code)
    {
        open = false;
    }
}
