package io.celer.http.server;

/**
 * Told when a streaming response can take more bytes after a write was refused.
 */
@FunctionalInterface
public interface WritableListener
{
    /**
     * The response can be written again.
     *
     * @param response the response.
     */
    void writable(HttpResponse response);
}
