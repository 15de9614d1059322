package io.celer.examples.queued;

import java.nio.ByteBuffer;

/**
 * A request line on its way from the reactor to a worker; pre-allocated, reused for every request.
 */
final class RequestCarrier
{
    long connectionId;
    final byte[] line;
    int length;

    RequestCarrier(final int maxLineLength)
    {
        line = new byte[maxLineLength];
    }

    /**
     * Copies the line out of the reactor's read buffer, which is reused as soon as the handler returns.
     */
    void fill(final long connectionId, final ByteBuffer source)
    {
        this.connectionId = connectionId;
        length = source.remaining();
        source.get(line, 0, length);
    }
}
