package io.celer.http.client;

import java.nio.ByteBuffer;

import io.celer.http.AsciiView;
import io.celer.http.internal.HeadFields;

/**
 * One response received by an {@link HttpClient}, a flyweight over its connection's buffers: nothing is copied
 * into Strings.
 *
 * <p>Valid only during the {@link ResponseListener} call that hands it over; a listener that needs a value later
 * copies it first. Header names are matched ignoring case; views returned by lookups are reused by the next one.
 */
public final class HttpClientResponse
{
    /** The most trailer fields a response may have. */
    static final int MAX_TRAILERS = 32;

    final HeadFields head;
    // The fields after a chunked body: in the head's buffer, behind the head.
    final HeadFields trailers = new HeadFields(MAX_TRAILERS);
    int status;
    int reasonStart;
    int reasonEnd;
    boolean streamed;
    long tag;
    ByteBuffer body;

    HttpClientResponse(final int maxHeaders)
    {
        head = new HeadFields(maxHeaders);
    }

    /** Starts a response whose head was just parsed, with its status line's code and reason. */
    void begin(final int code, final int reasonFrom, final int reasonTo)
    {
        trailers.clear();
        status = code;
        reasonStart = reasonFrom;
        reasonEnd = reasonTo;
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
        return head.view(reasonStart, reasonEnd);
    }

    /**
     * The minor version of the peer's HTTP: 1 for HTTP/1.1, 0 for HTTP/1.0.
     *
     * @return the minor version.
     */
    public int minorVersion()
    {
        return head.minorVersion();
    }

    /**
     * Whether the connection stays open after this exchange (version, {@code Connection}, framing).
     *
     * @return true to keep it open.
     */
    public boolean isKeepAlive()
    {
        return head.isKeepAlive();
    }

    /**
     * The number of header fields.
     *
     * @return the count.
     */
    public int headerCount()
    {
        return head.count();
    }

    /**
     * The name of a field, as sent.
     *
     * @param index from 0 to {@link #headerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView headerName(final int index)
    {
        return head.name(index);
    }

    /**
     * The value of a field, without surrounding whitespace.
     *
     * @param index from 0 to {@link #headerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView headerValue(final int index)
    {
        return head.value(index);
    }

    /**
     * The value of the first field with this name.
     *
     * @param name the name, any case.
     * @return a reused view, or null when absent.
     */
    public AsciiView header(final CharSequence name)
    {
        return head.value(name);
    }

    /**
     * Whether the first field with this name has this value, ignoring case.
     *
     * @param name  the name.
     * @param value the value.
     * @return true if present and equal.
     */
    public boolean headerEquals(final CharSequence name, final CharSequence value)
    {
        return head.valueEquals(name, value);
    }

    /**
     * Whether there is a field with this name.
     *
     * @param name the name.
     * @return true if present.
     */
    public boolean hasHeader(final CharSequence name)
    {
        return head.indexOf(name) >= 0;
    }

    /**
     * The declared Content-Length.
     *
     * @return bytes, or -1 without one (chunked, no body, or a response delimited by the connection's close).
     */
    public long contentLength()
    {
        return head.contentLength();
    }

    /**
     * Whether the body came chunked.
     *
     * @return true for {@code Transfer-Encoding: chunked}.
     */
    public boolean isChunked()
    {
        return head.isChunked();
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
        return trailers.count();
    }

    /**
     * The name of a trailer field, as sent.
     *
     * @param index from 0 to {@link #trailerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView trailerName(final int index)
    {
        return trailers.name(index);
    }

    /**
     * The value of a trailer field, without surrounding whitespace.
     *
     * @param index from 0 to {@link #trailerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView trailerValue(final int index)
    {
        return trailers.value(index);
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
        return trailers.value(name);
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
        return "HTTP/1." + head.minorVersion() + " " + status + " " + reason();
    }
}
