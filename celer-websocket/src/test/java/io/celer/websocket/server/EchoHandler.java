package io.celer.websocket.server;

import java.nio.ByteBuffer;

import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * Echoes every text and binary message, for tests.
 */
final class EchoHandler implements WebSocketHandler
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
