package io.celer.http.client;

import java.nio.ByteBuffer;

/**
 * Hears how one request sent by an {@link HttpClient} ends: exactly one of {@link #response} or
 * {@link #error}, after any {@link #bodyChunk} calls; all on the client's reactor thread.
 */
public interface ResponseListener
{
    /**
     * The whole response arrived.
     *
     * @param response the response, valid only during the call.
     */
    void response(HttpClientResponse response);

    /**
     * A part of a body too large to hold whole (see {@link HttpClientConfig#maxBodySize}); the parts come in
     * order, and {@link #response} follows with an empty body. By default the parts are dropped.
     *
     * @param response the response's head, valid only during the call.
     * @param chunk    the bytes between position and limit, valid only during the call.
     */
    default void bodyChunk(final HttpClientResponse response, final ByteBuffer chunk)
    {
        chunk.position(chunk.limit());
    }

    /**
     * The request failed; the exception tells why ({@link HttpClientException#reason()}) and which request
     * ({@link HttpClientException#tag()}).
     *
     * @param failure the failure, never thrown.
     */
    void error(HttpClientException failure);
}
