package io.celer.http;

import java.nio.ByteBuffer;

/**
 * One response received by an {@link HttpClient}, a flyweight over its connection's buffers: nothing is copied
 * into Strings.
 *
 * <p>Valid only during the {@link ResponseListener} call that hands it over; a listener that needs a value later
 * copies it first. Header names are matched ignoring case; views returned by lookups are reused by the next one.
 */
public final class HttpClientResponse extends ReceivedHead
{
    int status;
    int reasonStart;
    int reasonEnd;
    boolean streamed;
    long tag;
    ByteBuffer body;

    HttpClientResponse(final int maxHeaders)
    {
        super(maxHeaders);
    }

    void reset()
    {
        headerCount = 0;
        status = 0;
        minorVersion = 1;
        reasonStart = reasonEnd = 0;
        contentLength = -1;
        chunked = false;
        keepAlive = false;
        streamed = false;
    }

    /**
     * The status code.
     *
     * @return from 200 to 599 (interim 1xx responses are skipped).
     */
    public int status()
    {
        return status;
    }

    /**
     * The reason phrase, which a client should ignore (RFC 9112, 4).
     *
     * @return a reused view, empty when the server sent none.
     */
    public AsciiView reason()
    {
        return view.wrap(buffer, reasonStart, reasonEnd);
    }

    /**
     * Whether the body was too large to hold and went to {@link ResponseListener#onBodyChunk} instead.
     *
     * @return true when {@link #body()} is empty for that reason.
     */
    public boolean isStreamed()
    {
        return streamed;
    }

    /**
     * The whole body, de-chunked; a view of the connection's body buffer.
     *
     * @return a reused buffer between position and limit; empty without a body or when it was streamed.
     */
    public ByteBuffer body()
    {
        return body;
    }

    /**
     * The tag the request was sent with ({@link HttpClientRequest#tag}), to tell responses apart.
     *
     * @return the tag.
     */
    public long tag()
    {
        return tag;
    }

    @Override
    public String toString()
    {
        return "HTTP/1." + minorVersion + " " + status + " " + reason();
    }
}
