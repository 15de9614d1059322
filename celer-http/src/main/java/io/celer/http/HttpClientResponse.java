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
    final ReceivedTrailers trailers = new ReceivedTrailers();

    HttpClientResponse(final int maxHeaders)
    {
        super(maxHeaders);
    }

    void reset()
    {
        headerCount = 0;
        trailers.headerCount = 0;
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
     * Whether the body was too large to hold and went to {@link ResponseListener#bodyChunk} instead.
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
     * The number of trailer fields a chunked body ended with.
     *
     * @return the count, 0 for a body not chunked.
     */
    public int trailerCount()
    {
        return trailers.headerCount;
    }

    /**
     * The name of a trailer field, as sent.
     *
     * @param index from 0 to {@link #trailerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView trailerName(final int index)
    {
        return trailers.headerName(index);
    }

    /**
     * The value of a trailer field, without surrounding whitespace.
     *
     * @param index from 0 to {@link #trailerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView trailerValue(final int index)
    {
        return trailers.headerValue(index);
    }

    /**
     * The value of the first trailer field with this name (a checksum, a status sent after the body); the
     * fields of the head are in {@link #header}.
     *
     * @param name the name, any case.
     * @return a reused view, or null when absent.
     */
    public AsciiView trailer(final CharSequence name)
    {
        return trailers.header(name);
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
