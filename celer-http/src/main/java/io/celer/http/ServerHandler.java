package io.celer.http;

import java.nio.ByteBuffer;

import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * The TCP side of an {@link HttpServer}: gives each connection its {@link HttpConnection} and passes every
 * event to the protocol the connection speaks now.
 */
final class ServerHandler implements Handler
{
    private static final System.Logger LOG = System.getLogger(ServerHandler.class.getName());

    private final HttpServerConfig config;
    private final HttpHandler handler;
    private final DateHeader date;
    private final byte[] serverLine;
    private final ConnectionRecycler recycler;

    ServerHandler(final HttpServerConfig config, final HttpHandler handler, final DateHeader date)
    {
        this.config = config;
        this.handler = handler;
        this.date = date;
        this.recycler = new ConnectionRecycler(config);
        this.serverLine = config.serverName() == null ? null :
            ("Server: " + config.serverName() + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Override
    public void opened(final Connection connection)
    {
        final HttpConnection http = new HttpConnection(config, handler, connection, date, serverLine, recycler);
        connection.attach(http);
        http.start();
    }

    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        protocol(connection).onData(connection, message);
    }

    @Override
    public void writeSpaceFreed(final Connection connection, final int freeBytes)
    {
        protocol(connection).onWriteSpaceFreed(connection, freeBytes);
    }

    @Override
    public void eventTimeout(final Connection connection, final long nowMillis)
    {
        protocol(connection).onEventTimeout(connection, nowMillis);
    }

    @Override
    public void readTimeout(final Connection connection, final long nowMillis)
    {
        protocol(connection).onReadTimeout(connection, nowMillis);
    }

    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        final HttpConnection http = connection.attachment();
        if (http != null)
        {
            http.onClosed(connection, reason);
        }
    }

    /** The protocol the connection speaks now: HTTP, or the one an upgrade handed it to. */
    private static ProtocolHandler protocol(final Connection connection)
    {
        final HttpConnection http = connection.attachment();
        return http.protocol();
    }

    /** What closed connections left for the next; tests look at it. */
    ConnectionRecycler recycler()
    {
        return recycler;
    }

    @Override
    public void error(final Connection connection, final Throwable error)
    {
        LOG.log(System.Logger.Level.DEBUG, connection + " failed", error);
    }
}
