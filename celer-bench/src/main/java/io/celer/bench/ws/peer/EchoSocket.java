package io.celer.bench.ws.peer;

import java.nio.ByteBuffer;

import io.celer.websocket.CloseCode;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * The {@code /echo} of Celer's WebSocket peer, as Netty's and Vert.x's peers have one: sends every text and
 * binary message back. Its clients send one message at a time and wait for the echo, so the write buffer always
 * has room; one that does not wait and fills it is closed (1008) rather than queued for.
 */
final class EchoSocket implements WebSocketHandler
{
    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        if (!socket.sendText(message.bytes()))
        {
            socket.close(CloseCode.POLICY_VIOLATION, "echo not read");
        }
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        if (!socket.sendBinary(message))
        {
            socket.close(CloseCode.POLICY_VIOLATION, "echo not read");
        }
    }
}
