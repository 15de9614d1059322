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
    private final ServerShare share;

    ServerHandler(final HttpServerConfig config, final HttpHandler handler, final DateHeader date,
        final Reactor reactor)
    {
        this.share = new ServerShare(config, handler, date, reactor);
    }

    @Override
    public void opened(final Connection connection)
    {
        connection.handler(new HttpConnection(share, connection));
    }

    /** What closed connections left for the next; tests look at it. */
    ConnectionRecycler recycler()
    {
        return share.recycler;
    }
}
