package io.celer.http.server;

import io.celer.reactor.Reactor;

/**
 * What every connection of an {@link HttpServer} on one reactor shares: its settings, handler and head parser,
 * the date and server header lines, the recycler that lends per-request parts, and the reactor's counters. A
 * connection, its pipeline and its responses reach them through one reference, not one each, on every one of
 * thousands of idle connections.
 */
final class ServerShare
{
    final HttpServerConfig config;
    final HttpHandler handler;
    /** Holds only the limits: one serves every connection. */
    final RequestHeadParser parser;
    final DateHeader date;
    /** The {@code Server} header line, or null for none. */
    final byte[] serverLine;
    final ConnectionRecycler recycler;
    final HttpCounters counters;

    ServerShare(final HttpServerConfig config, final HttpHandler handler, final DateHeader date, final Reactor reactor)
    {
        this.config = config;
        this.handler = handler;
        this.date = date;
        this.parser = new RequestHeadParser(config.maxRequestLineLength(), config.maxHeaderSectionSize(),
            config.allowObsFold());
        this.serverLine = config.serverName() == null ? null :
            ("Server: " + config.serverName() + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        this.recycler = new ConnectionRecycler(config, reactor);
        this.counters = HttpCounters.of(reactor.counters());
    }
}
