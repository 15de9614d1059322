package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.ReactorPool;

/**
 * What a server's closed connections leave for the next ones, bounded, on the reactor thread: request tables
 * (the header offsets, a few KiB at the default header limit) and response heads. A connection per request, as
 * without keep-alive, then costs none of them.
 *
 * <p>Only what no live handle can reach comes back: a request is valid only during its handler's call, and a
 * response only until it is complete, so the heads of responses still open at the close stay with them.
 */
final class ConnectionRecycler
{
    private final ReactorPool<HttpRequest> requests;
    private final ReactorPool<ByteBuffer> heads;

    /**
     * @param config the server's settings: the sizes, and how many of each to keep.
     */
    ConnectionRecycler(final HttpServerConfig config)
    {
        final int maxHeaders = config.maxHeaderCount();
        final int headSize = config.responseHeadSize();
        this.requests = new ReactorPool<>(config.connectionPoolSize(), () -> new HttpRequest(maxHeaders));
        this.heads = new ReactorPool<>(config.connectionPoolSize(), () -> ByteBuffer.allocate(headSize));
    }

    /** A request table, a closed connection's or a new one. */
    HttpRequest takeRequest()
    {
        return requests.take();
    }

    /** Takes back the request table of a closed connection; the next head parsed resets it. */
    void give(final HttpRequest request)
    {
        requests.give(request);
    }

    /** A response head, a closed connection's or a new one. */
    ByteBuffer takeHead()
    {
        return heads.take();
    }

    /** Takes back the head of a complete response whose connection closed. */
    void giveHead(final ByteBuffer head)
    {
        heads.give(head);
    }

    /** Request tables and heads made since the server started; tests look at it. */
    long made()
    {
        return requests.made() + heads.made();
    }

    /** Request tables and heads kept for the next connections. */
    int kept()
    {
        return requests.kept() + heads.kept();
    }
}
