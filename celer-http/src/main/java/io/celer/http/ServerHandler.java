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
        final HttpConnection http = connection.attachment();
        http.protocol().onData(connection, message);
    }

    @Override
    public void writeSpaceFreed(final Connection connection, final int freeBytes)
    {
        final HttpConnection http = connection.attachment();
        http.protocol().onWriteSpaceFreed(connection, freeBytes);
    }

    @Override
    public void eventTimeout(final Connection connection, final long nowMillis)
    {
        final HttpConnection http = connection.attachment();
        http.protocol().onEventTimeout(connection, nowMillis);
    }

    @Override
    public void readTimeout(final Connection connection, final long nowMillis)
    {
        final HttpConnection http = connection.attachment();
        http.protocol().onReadTimeout(connection, nowMillis);
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
