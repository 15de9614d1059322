package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.reactor.internal.ReactorPool;

/**
 * What a server's connections lend each other on the reactor thread: request tables (the header offsets), lent
 * while a request is read and handled, response heads, lent per response until it is sent, and response
 * buffers, lent while bytes wait for a slow socket or for their turn, and response outputs with their timers, lent
 * while a connection has a response in flight; an idle keep-alive connection holds none, and a connection per
 * request, as without keep-alive, costs none.
 *
 * <p>Only what no live handle can reach comes back: a request is valid only during its handler's call, and a
 * response only until it is complete, so the heads of responses still open at a close stay with them. The heads
 * kept are as many as were out at once (a steady load then allocates none), trimmed now and then to what the
 * latest peak needed, and at least {@link HttpServerConfig#connectionPoolSize}, as are the outputs; request
 * tables, at most that many. An output refers to no connection while kept.
 */
final class ConnectionRecycler
{
    private final ReactorPool<HttpRequest> requests;
    private final ReactorPool<ByteBuffer> heads;
    /** Response backlogs and parked responses, lent while they hold bytes. */
    private final ReactorPool<ByteBuffer> responseBuffers;
    private final ReactorPool<ResponseOutput> outputs;
    private final int responseSize;
    private final int floor;

    /**
     * @param config  the server's settings: the sizes, and how many of each to keep.
     * @param reactor the reactor whose connections it serves, and whose budget and counters the outputs use.
     */
    ConnectionRecycler(final HttpServerConfig config, final Reactor reactor)
    {
        final int maxHeaders = config.maxHeaderCount();
        final int headSize = config.responseHeadSize();
        this.requests = new ReactorPool<>(config.connectionPoolSize(), () -> new HttpRequest(maxHeaders));
        // A pool of none keeps none; else as many as were out at once, trimmed down to the floor now and then.
        this.heads = new ReactorPool<>(config.connectionPoolSize() == 0 ? 0 : Integer.MAX_VALUE,
            () -> ByteBuffer.allocate(headSize));
        final int responseSize = config.responseBufferSize();
        this.responseSize = responseSize;
        this.responseBuffers = new ReactorPool<>(config.connectionPoolSize() == 0 ? 0 : Integer.MAX_VALUE,
            () -> ByteBuffer.allocate(responseSize));
        this.outputs = new ReactorPool<>(config.connectionPoolSize() == 0 ? 0 : Integer.MAX_VALUE,
            () -> new ResponseOutput(reactor, responseSize, this));
        this.floor = config.connectionPoolSize();
    }

    /** A request table, a closed connection's or a new one. */
    HttpRequest takeRequest()
    {
        return requests.take();
    }

    /** Takes back a request table between requests or at a close; the next head parsed resets it. */
    void give(final HttpRequest request)
    {
        requests.give(request);
    }

    /** A response head, a closed connection's or a new one. */
    ByteBuffer takeHead()
    {
        return heads.take();
    }

    /** Takes back the head of a response sent, or complete when its connection closed. */
    void giveHead(final ByteBuffer head)
    {
        heads.giveAndTrim(head, floor);
    }

    /** A response buffer (a backlog, or room for responses parked out of turn), empty. */
    ByteBuffer takeResponseBuffer()
    {
        return responseBuffers.take().clear();
    }

    /** Takes back a response buffer its connection emptied or closed with. */
    void giveResponseBuffer(final ByteBuffer buffer)
    {
        responseBuffers.giveAndTrim(buffer.clear(), floor);
    }

    /** A response output with its timer, bound to no connection. */
    ResponseOutput takeOutput()
    {
        return outputs.take();
    }

    /** Takes back an output its connection no longer needs: it holds no buffer and no response to time. */
    void giveOutput(final ResponseOutput output)
    {
        outputs.giveAndTrim(output, floor);
    }

    /** The bytes a response buffer holds ({@link HttpServerConfig#responseBufferSize}). */
    int responseBufferSize()
    {
        return responseSize;
    }

    /** Outputs lent to connections now; tests look at it. */
    int outputsLent()
    {
        return outputs.lent();
    }

    /** Outputs made since the server started; tests look at it. */
    long outputsMade()
    {
        return outputs.made();
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
