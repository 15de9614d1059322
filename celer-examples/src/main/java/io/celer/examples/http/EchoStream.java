package io.celer.examples.http;

import java.nio.ByteBuffer;

import io.celer.http.server.BodyListener;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.WritableListener;
import io.celer.tcp.Connection;

/**
 * Echoes one request body too large to hold, as it arrives, as a streamed (chunked) response; reused by later
 * uploads once done, so a server keeps as many as it has concurrent large uploads.
 *
 * <p>The response refuses a chunk when its connection's buffers are full; the server then stops reading the
 * connection, but the bytes of the read in progress still arrive. Those wait here, in a buffer as large as a
 * read, and go out when the response says it is writable again.
 */
final class EchoStream implements BodyListener, WritableListener
{
    private static final System.Logger LOG = System.getLogger(EchoStream.class.getName());

    // Chunks are cut from the pending bytes in slices, so one that fits goes out while the peer reads slowly.
    private static final int SLICE = 16 * 1024;

    private final ByteBuffer pending;
    private HttpResponse response;
    private Connection connection;
    private boolean busy;
    private boolean ending;
    private long holds;

    /**
     * A stream that can hold this many refused bytes.
     *
     * @param pendingCapacity at least the server's read buffer size.
     */
    EchoStream(final int pendingCapacity)
    {
        this.pending = ByteBuffer.allocate(pendingCapacity);
    }

    /**
     * Whether another upload can take this stream: it is done, or its connection died before the body ended.
     *
     * @return true if free.
     */
    boolean isFree()
    {
        return !busy || !connection.isOpen();
    }

    /**
     * Starts echoing: sends the head and listens to the body.
     *
     * @param request     the request, whose body is streamed.
     * @param response    its response.
     * @param contentType the request's content type, or null.
     */
    void start(final HttpRequest request, final HttpResponse response, final CharSequence contentType)
    {
        this.response = response;
        this.connection = response.connection();
        this.busy = true;
        this.ending = false;
        pending.clear();
        response.header("Content-Type", contentType != null ? contentType : HelloRoutes.OCTET_STREAM).beginChunked();
        response.onWritable(this);
        request.bodyListener(this);
    }

    /**
     * How many times bytes the response refused were held here.
     *
     * @return the count.
     */
    long holds()
    {
        return holds;
    }

    @Override
    public void body(final ByteBuffer data)
    {
        if (pending.position() == 0 && response.writeChunk(data))
        {
            return;
        }
        if (data.remaining() > pending.remaining())
        {
            // More than one read's worth refused: the server did not stop reading as it should; do not guess.
            LOG.log(System.Logger.Level.WARNING, connection + ": echo fell more than " + pending.capacity() +
                " bytes behind, closing");
            data.position(data.limit());
            busy = false;
            connection.close();
            return;
        }
        pending.put(data);
        holds++;
        drain();
    }

    @Override
    public void ended(final HttpResponse ended)
    {
        ending = true;
        drain();
    }

    @Override
    public void writable(final HttpResponse writable)
    {
        drain();
    }

    private void drain()
    {
        if (!busy)
        {
            return;
        }
        pending.flip();
        while (pending.hasRemaining())
        {
            final int limit = pending.limit();
            pending.limit(Math.min(limit, pending.position() + SLICE));
            final boolean taken = response.writeChunk(pending);
            pending.limit(limit);
            if (!taken)
            {
                break;
            }
        }
        pending.compact();
        if (ending && pending.position() == 0)
        {
            busy = false;
            response.endChunked();
        }
    }
}
