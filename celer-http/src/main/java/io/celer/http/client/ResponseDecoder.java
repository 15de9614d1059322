package io.celer.http.client;

import java.nio.ByteBuffer;

import io.celer.http.internal.ChunkedDecoder;
import io.celer.http.internal.HeadFields;
import io.celer.http.internal.HeaderFieldParser;
import io.celer.http.internal.ResponseError;
import io.celer.http.internal.ResponseHeadParser;
import io.celer.reactor.internal.ReactorPool;

/**
 * Cuts a connection's incoming bytes into responses (RFC 9112, 6.3): skips interim 1xx responses, reads no body
 * after HEAD, 204 and 304, then a body delimited by Content-Length, by the chunked coding (trailer fields checked
 * and copied into the head's buffer behind the head, for {@link HttpClientResponse#trailer}) or by the
 * connection's close.
 *
 * <p>Bodies are copied, de-chunked, into one buffer per connection so that every framing hands the listener the
 * same contiguous view; a body larger than that buffer streams through it to
 * {@link ResponseListener#bodyChunk}.
 */
final class ResponseDecoder
{
    /** More bytes are needed. */
    static final int NEED_MORE = 0;
    /** A response is complete; the data's position is after it. */
    static final int COMPLETE = 1;
    /** The bytes are not a valid response; see {@link #error()}. */
    static final int ERROR = 2;

    private static final int HEAD = 0;
    private static final int LENGTH = 1;
    private static final int CHUNKED = 2;
    private static final int UNTIL_CLOSE = 3;

    private final HttpClientResponse response;
    private final ResponseHeadParser headParser;
    private final ChunkedDecoder chunked;
    private final ReactorPool<ByteBuffer> bodies;
    private final ByteBuffer noBody = ByteBuffer.allocate(0);
    private ByteBuffer body;

    private int state = HEAD;
    private long remaining;
    private int trailersStart;
    private ResponseError error;

    /** A decoder with buffers of its own, for one connection alone. */
    ResponseDecoder(final int maxHeadSize, final int maxHeaders, final int maxBodySize)
    {
        this(ReactorPool.directBuffers(maxHeadSize, 1), maxHeadSize, ReactorPool.directBuffers(maxBodySize, 1),
            maxHeaders);
    }

    /**
     * @param heads       lends the buffer a response's head is copied to.
     * @param maxHeadSize the capacity of the heads' buffers: the longest head.
     * @param bodies      lends the buffer a body is gathered in.
     * @param maxHeaders  the most fields a head may have.
     */
    ResponseDecoder(final ReactorPool<ByteBuffer> heads, final int maxHeadSize, final ReactorPool<ByteBuffer> bodies,
        final int maxHeaders)
    {
        response = new HttpClientResponse(maxHeaders);
        headParser = new ResponseHeadParser(heads, maxHeadSize);
        chunked = new ChunkedDecoder(1024, maxHeadSize);
        this.bodies = bodies;
        response.body = noBody;
    }

    /**
     * Gives the buffers of the response read last back to be lent again: the listener is done with it. A
     * connection waiting for its next response then holds no buffer.
     */
    void release()
    {
        if (state != HEAD || headParser.inProgress())
        {
            return; // the next response is half read: its buffers stay
        }
        headParser.release();
        response.head.attach(null, 0);
        releaseBody();
    }

    private void releaseBody()
    {
        if (body != null)
        {
            bodies.give(body);
            body = null;
        }
        response.body = noBody;
    }

    /** The response being read, valid in the listener's calls. */
    HttpClientResponse response()
    {
        return response;
    }

    /** Why the bytes were rejected. */
    ResponseError error()
    {
        return error;
    }

    /** Whether some of a response has been read and not yet all. */
    boolean inProgress()
    {
        return state != HEAD || headParser.inProgress();
    }

    /** Whether parts of the body in progress already went to the listener, so that it cannot be asked again. */
    boolean hasDelivered()
    {
        return state != HEAD && response.streamed;
    }

    /** Forgets the response in progress, for a new connection. */
    void reset()
    {
        state = HEAD;
        headParser.reset();
        headParser.release();
        response.head.attach(null, 0);
        releaseBody();
    }

    /**
     * Reads bytes of the response to the oldest request in flight.
     *
     * @param data        the bytes between position and limit; the position moves past what was used.
     * @param headRequest whether that request was HEAD, whose response has no body.
     * @param listener    hears streamed parts of a large body.
     * @return {@link #NEED_MORE}, {@link #COMPLETE} or {@link #ERROR}.
     */
    int decode(final ByteBuffer data, final boolean headRequest, final ResponseListener listener)
    {
        while (true)
        {
            if (state == HEAD)
            {
                final int start = data.position();
                final int result = headParser.parse(data, start, data.limit(), response.head);
                if (result == ResponseHeadParser.NEED_MORE)
                {
                    return NEED_MORE;
                }
                if (result == ResponseHeadParser.ERROR)
                {
                    return fail(headParser.error());
                }
                final int headLength = headParser.headLength();
                data.position(start + headLength);
                headParser.reset();
                final int status = headParser.status();
                response.begin(status, headParser.reasonStart(), headParser.reasonEnd());
                if (status < 200)
                {
                    if (status == 101)
                    {
                        return fail(ResponseError.UNASKED_UPGRADE);
                    }
                    continue; // interim: 100 Continue, 103 Early Hints
                }
                if (body != null)
                {
                    body.clear();
                }
                response.body = noBody;
                if (headRequest || status == 204 || status == 304)
                {
                    return finish(listener);
                }
                final HeadFields head = response.head;
                if (head.isChunked())
                {
                    chunked.reset();
                    // The trailers share the head's buffer: head and trailers together are bounded by its size.
                    trailersStart = head.base() + headLength;
                    chunked.keepTrailers(head.buffer(), trailersStart);
                    state = CHUNKED;
                }
                else if (head.contentLength() >= 0)
                {
                    remaining = head.contentLength();
                    state = LENGTH;
                }
                else
                {
                    head.keepAlive(false);
                    state = UNTIL_CLOSE;
                }
            }
            if (state == LENGTH)
            {
                final int n = (int)Math.min(remaining, data.remaining());
                copy(data, n, listener);
                remaining -= n;
                return remaining == 0 ? finish(listener) : NEED_MORE;
            }
            if (state == CHUNKED)
            {
                return decodeChunked(data, listener);
            }
            copy(data, data.remaining(), listener);
            return NEED_MORE;
        }
    }

    /**
     * The connection closed: ends a body delimited by the close.
     *
     * @param listener hears the last streamed part.
     * @return {@link #COMPLETE} if that ended a response, {@link #NEED_MORE} if no response was begun,
     *         {@link #ERROR} if one was cut short.
     */
    int closed(final ResponseListener listener)
    {
        if (state == UNTIL_CLOSE)
        {
            return finish(listener);
        }
        return inProgress() ? fail(ResponseError.CUT_SHORT) : NEED_MORE;
    }

    private int decodeChunked(final ByteBuffer data, final ResponseListener listener)
    {
        while (true)
        {
            data.position(chunked.decode(data, data.position(), data.limit()));
            if (chunked.status() != 0)
            {
                return fail(ResponseError.BAD_CHUNKED);
            }
            if (chunked.isDone())
            {
                return trailers() ? finish(listener) : fail(ResponseError.BAD_CHUNKED);
            }
            final int n = (int)Math.min(chunked.dataRemaining(), data.remaining());
            if (n == 0)
            {
                return NEED_MORE;
            }
            copy(data, n, listener);
            chunked.dataTaken(n);
        }
    }

    /** Indexes the trailer section the chunked decoder copied behind the head; false if it does not parse. */
    private boolean trailers()
    {
        final HeadFields head = response.head;
        final HeadFields trailers = response.trailers;
        trailers.attach(head.buffer(), head.base());
        return HeaderFieldParser.scan(head.buffer(), head.base(), trailersStart, chunked.trailersEnd() - 2, false,
            trailers) >= 0;
    }

    /** Copies body bytes into the body buffer, handing full buffers on to the listener. */
    private void copy(final ByteBuffer data, final int count, final ResponseListener listener)
    {
        int left = count;
        if (left > 0 && body == null)
        {
            body = bodies.take().clear(); // borrowed until the listener is done with the response
        }
        while (left > 0)
        {
            if (!body.hasRemaining())
            {
                response.streamed = true;
                deliver(listener);
            }
            final int n = Math.min(left, body.remaining());
            final int limit = data.limit();
            data.limit(data.position() + n);
            body.put(data);
            data.limit(limit);
            left -= n;
        }
    }

    private void deliver(final ResponseListener listener)
    {
        body.flip();
        listener.bodyChunk(response, body);
        body.clear();
    }

    private int finish(final ResponseListener listener)
    {
        state = HEAD;
        if (body == null)
        {
            response.body = noBody;
            return COMPLETE;
        }
        if (response.streamed && body.position() > 0)
        {
            deliver(listener);
        }
        body.flip();
        response.body = body;
        return COMPLETE;
    }

    private int fail(final ResponseError why)
    {
        error = why;
        state = HEAD;
        headParser.reset();
        return ERROR;
    }
}
