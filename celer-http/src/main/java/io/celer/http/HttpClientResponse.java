package io.celer.http;

import java.nio.ByteBuffer;

/**
 * One response received by an {@link HttpClient}, a flyweight over its connection's buffers: nothing is copied
 * into Strings.
 *
 * <p>Valid only during the {@link ResponseListener} call that hands it over; a listener that needs a value later
 * copies it first. Header names are matched ignoring case; views returned by lookups are reused by the next one.
 */
public final class HttpClientResponse
{
    final int[] nameStart;
    final int[] nameEnd;
    final int[] valueStart;
    final int[] valueEnd;
    int headerCount;

    ByteBuffer head;
    int status;
    int minorVersion;
    int reasonStart;
    int reasonEnd;
    long contentLength;
    boolean chunked;
    boolean keepAlive;
    boolean streamed;
    long tag;
    ByteBuffer body;

    private final AsciiView view = new AsciiView();

    HttpClientResponse(final int maxHeaders)
    {
        nameStart = new int[maxHeaders];
        nameEnd = new int[maxHeaders];
        valueStart = new int[maxHeaders];
        valueEnd = new int[maxHeaders];
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
        return view.wrap(head, reasonStart, reasonEnd);
    }

    /**
     * The minor version of the server's HTTP: 1 for HTTP/1.1, 0 for HTTP/1.0.
     *
     * @return the minor version.
     */
    public int minorVersion()
    {
        return minorVersion;
    }

    /**
     * Whether the connection stays open after this response (version, {@code Connection}, framing).
     *
     * @return true when it is reused.
     */
    public boolean isKeepAlive()
    {
        return keepAlive;
    }

    /**
     * The number of header fields.
     *
     * @return the count.
     */
    public int headerCount()
    {
        return headerCount;
    }

    /**
     * The name of a field, as sent.
     *
     * @param index from 0 to {@link #headerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView headerName(final int index)
    {
        checkIndex(index);
        return view.wrap(head, nameStart[index], nameEnd[index]);
    }

    /**
     * The value of a field, without surrounding whitespace.
     *
     * @param index from 0 to {@link #headerCount()} - 1.
     * @return a reused view.
     */
    public AsciiView headerValue(final int index)
    {
        checkIndex(index);
        return view.wrap(head, valueStart[index], valueEnd[index]);
    }

    /**
     * The value of the first field with this name.
     *
     * @param name the name, any case.
     * @return a reused view, or null when absent.
     */
    public AsciiView header(final CharSequence name)
    {
        final int index = indexOf(name);
        return index < 0 ? null : view.wrap(head, valueStart[index], valueEnd[index]);
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
        final int index = indexOf(name);
        return index >= 0 && Ascii.equalsIgnoreCase(head, valueStart[index], valueEnd[index], value);
    }

    /**
     * Whether the response has a field with this name.
     *
     * @param name the name.
     * @return true if present.
     */
    public boolean hasHeader(final CharSequence name)
    {
        return indexOf(name) >= 0;
    }

    private int indexOf(final CharSequence name)
    {
        return HeaderFieldParser.indexOf(head, 0, nameStart, nameEnd, headerCount, name);
    }

    /**
     * The declared Content-Length.
     *
     * @return bytes, or -1 without one (chunked, or delimited by the connection's close).
     */
    public long contentLength()
    {
        return contentLength;
    }

    /**
     * Whether the body came chunked.
     *
     * @return true for {@code Transfer-Encoding: chunked}.
     */
    public boolean isChunked()
    {
        return chunked;
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

    private void checkIndex(final int index)
    {
        java.util.Objects.checkIndex(index, headerCount);
    }

    @Override
    public String toString()
    {
        return "HTTP/1." + minorVersion + " " + status + " " + reason();
    }
}
