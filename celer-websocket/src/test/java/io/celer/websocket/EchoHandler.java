package io.celer.websocket;

import java.nio.ByteBuffer;

/**
 * Echoes every text and binary message, for tests.
 */
public final class EchoHandler implements WebSocketHandler
{
    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        socket.sendText(message.bytes());
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        socket.sendBinary(message);
    }
}
