package io.celer.http.server;

import java.nio.ByteBuffer;

/**
 * Receives a request body that is streamed instead of held whole (see {@link HttpRequest#bodyListener}).
 */
public interface BodyListener
{
    /**
     * Some of the body's bytes, de-chunked.
     *
     * @param data the bytes between position and limit, valid only during the call.
     */
    void body(ByteBuffer data);

    /**
     * The body is complete.
     *
     * @param response the request's response, if not answered yet.
     */
    void ended(HttpResponse response);
}
