package io.celer.http.server;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * The handler an {@link HttpServer}'s connections start with: hands each one to its own {@link HttpConnection},
 * which hears every later event directly.
 */
final class ServerHandler implements Handler
{
    private final HttpServerConfig config;
    private final HttpHandler handler;
    private final DateHeader date;
    private final byte[] serverLine;
    private final ConnectionRecycler recycler;
    /** Holds only the limits: one serves every connection. */
    private final RequestHeadParser parser;

    ServerHandler(final HttpServerConfig config, final HttpHandler handler, final DateHeader date,
        final Reactor reactor)
    {
        this.config = config;
        this.handler = handler;
        this.date = date;
        this.recycler = new ConnectionRecycler(config, reactor);
        this.parser = new RequestHeadParser(config.maxRequestLineLength(), config.maxHeaderSectionSize(),
            config.allowObsFold());
        this.serverLine = config.serverName() == null ? null :
            ("Server: " + config.serverName() + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Override
    public void opened(final Connection connection)
    {
        connection.handler(new HttpConnection(config, handler, connection, date, serverLine, recycler, parser));
    }

    /** What closed connections left for the next; tests look at it. */
    ConnectionRecycler recycler()
    {
        return recycler;
    }
}
