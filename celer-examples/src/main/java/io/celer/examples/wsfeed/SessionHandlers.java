package io.celer.examples.wsfeed;

import java.nio.ByteBuffer;
import java.util.function.Supplier;

import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * A handler per session behind the one handler an upgrade shares: made when a session opens, kept as its
 * WebSocket's attachment, and given every later event of that session. A {@link io.celer.websocket.outbound.Fanout}
 * needs this, its outboxes being one per client. Forwarding allocates nothing.
 */
final class SessionHandlers implements WebSocketHandler
{
    private final Supplier<WebSocketHandler> factory;

    /**
     * Handlers made by a factory.
     *
     * @param factory makes one session's handler, on the reactor thread.
     */
    SessionHandlers(final Supplier<WebSocketHandler> factory)
    {
        this.factory = factory;
    }

    private static WebSocketHandler of(final WebSocket socket)
    {
        return socket.attachment();
    }

    @Override
    public void opened(final WebSocket socket)
    {
        final WebSocketHandler handler = factory.get();
        socket.attach(handler);
        handler.opened(socket);
    }

    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        of(socket).text(socket, message);
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        of(socket).binary(socket, message);
    }

    @Override
    public void fragment(final WebSocket socket, final ByteBuffer chunk, final boolean text, final boolean last)
    {
        of(socket).fragment(socket, chunk, text, last);
    }

    @Override
    public void ping(final WebSocket socket, final ByteBuffer payload)
    {
        of(socket).ping(socket, payload);
    }

    @Override
    public void pong(final WebSocket socket, final ByteBuffer payload)
    {
        of(socket).pong(socket, payload);
    }

    @Override
    public void closing(final WebSocket socket, final int code, final Utf8Text reason)
    {
        of(socket).closing(socket, code, reason);
    }

    @Override
    public void writable(final WebSocket socket, final int freeBytes)
    {
        of(socket).writable(socket, freeBytes);
    }

    @Override
    public void closed(final WebSocket socket, final int code)
    {
        final WebSocketHandler handler = of(socket);
        if (handler != null)
        {
            handler.closed(socket, code);
        }
        socket.attach(null);
    }
}
