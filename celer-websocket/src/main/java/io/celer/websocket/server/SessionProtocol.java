package io.celer.websocket.server;

import java.nio.ByteBuffer;

import io.celer.http.ProtocolHandler;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.websocket.WebSocketSession;

/**
 * The protocol of an upgraded connection: passes the HTTP server's connection events to its WebSocket session.
 */
final class SessionProtocol implements ProtocolHandler
{
    private final WebSocketSession session;

    SessionProtocol(final WebSocketSession session)
    {
        this.session = session;
    }

    @Override
    public void onStart(final Connection connection)
    {
        session.open(connection);
    }

    @Override
    public void onData(final Connection connection, final ByteBuffer data)
    {
        session.onRead(data);
    }

    @Override
    public void onWriteSpaceFreed(final Connection connection, final int freeBytes)
    {
        session.onWriteSpaceFreed(freeBytes);
    }

    @Override
    public void onEventTimeout(final Connection connection, final long nowMillis)
    {
        session.onEventTimeout();
    }

    @Override
    public void onClosed(final Connection connection, final CloseReason reason)
    {
        session.onConnectionClosed();
    }

    @Override
    public String toString()
    {
        return session.toString();
    }
}
