package io.celer.http.server;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * What a {@link ResponsePipeline} tells the connection it serves.
 */
interface PipelineEvents
{
    /**
     * The connection the responses go out on.
     *
     * @return it.
     */
    Connection connection();

    /** Bytes wait for the peer to read: stop reading its requests. */
    void backlogged();

    /** The backlog drained: read again. */
    void drained();

    /** More response bytes were held than the buffers take: the connection must close. */
    void overflowed();

    /**
     * The oldest response was sent and its slot freed.
     *
     * @param sequence its request's sequence.
     */
    void retired(int sequence);

    /** A response committed to closing the connection after it: read no further requests. */
    void closing();

    /** A response that ends the connection was sent. */
    void closeAfterResponse();

    /**
     * A 101 response was sent: the connection speaks another protocol from now on.
     *
     * @param next the handler of the protocol.
     */
    void upgraded(Handler next);
}
