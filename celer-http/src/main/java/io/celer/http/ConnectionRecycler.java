package io.celer.http;

import java.nio.ByteBuffer;

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
    private final int maxHeaders;
    private final int headSize;
    private final HttpRequest[] requests;
    private final ByteBuffer[] heads;
    private int requestCount;
    private int headCount;
    private long made;

    /**
     * @param config the server's settings: the sizes, and how many of each to keep.
     */
    ConnectionRecycler(final HttpServerConfig config)
    {
        this.maxHeaders = config.maxHeaderCount();
        this.headSize = config.responseHeadSize();
        this.requests = new HttpRequest[config.connectionPoolSize()];
        this.heads = new ByteBuffer[config.connectionPoolSize()];
    }

    /** A request table, a closed connection's or a new one. */
    HttpRequest takeRequest()
    {
        if (requestCount == 0)
        {
            made++;
            return new HttpRequest(maxHeaders);
        }
        final HttpRequest request = requests[--requestCount];
        requests[requestCount] = null;
        return request;
    }

    /** Takes back the request table of a closed connection; the next head parsed resets it. */
    void give(final HttpRequest request)
    {
        if (requestCount < requests.length)
        {
            requests[requestCount++] = request;
        }
    }

    /** A response head, a closed connection's or a new one. */
    ByteBuffer takeHead()
    {
        if (headCount == 0)
        {
            made++;
            return ByteBuffer.allocate(headSize);
        }
        final ByteBuffer head = heads[--headCount];
        heads[headCount] = null;
        return head;
    }

    /** Takes back the head of a complete response whose connection closed. */
    void giveHead(final ByteBuffer head)
    {
        if (headCount < heads.length)
        {
            heads[headCount++] = head;
        }
    }

    /** Request tables and heads made since the server started; tests look at it. */
    long made()
    {
        return made;
    }

    /** Request tables and heads kept for the next connections. */
    int kept()
    {
        return requestCount + headCount;
    }
}
