package io.celer.http;

import java.nio.ByteBuffer;

/**
 * One request, a flyweight over the connection's read buffer: nothing is copied and no String is made.
 *
 * <p>Valid only during {@link HttpHandler#handle}; a handler that answers later copies what it needs first.
 * Header names are matched ignoring case; views returned by lookups are reused by the next lookup.
 */
public final class HttpRequest
{
    final int[] nameStart;
    final int[] nameEnd;
    final int[] valueStart;
    final int[] valueEnd;
    int headerCount;

    ByteBuffer buffer;
    int base;
    HttpMethod method;
    int methodEnd;
    int targetStart;
    int targetEnd;
    int pathStart;
    int pathEnd;
    int queryStart;
    int queryEnd;
    int minorVersion;
    int headEnd;
    long contentLength;
    boolean chunked;
    boolean keepAlive;
    boolean expectContinue;
    boolean upgrade;
    int hostIndex;
    int bodyStart;
    int bodyLength;
    boolean bodyComplete;
    long sequence;
    BodyListener bodyListener;

    private final AsciiView view = new AsciiView();
    private final AsciiView pathView = new AsciiView();
    private ByteBuffer bodyView;
    private ByteBuffer bodyViewOf;

    HttpRequest(final int maxHeaders)
    {
        nameStart = new int[maxHeaders];
        nameEnd = new int[maxHeaders];
        valueStart = new int[maxHeaders];
        valueEnd = new int[maxHeaders];
    }

    void reset()
    {
        headerCount = 0;
        method = HttpMethod.OTHER;
        queryStart = queryEnd = -1;
        contentLength = -1;
        chunked = false;
        keepAlive = false;
        expectContinue = false;
        upgrade = false;
        hostIndex = -1;
        bodyStart = 0;
        bodyLength = 0;
        bodyComplete = true;
        bodyListener = null;
    }

    void attach(final ByteBuffer buffer, final int base)
    {
        this.buffer = buffer;
        this.base = base;
    }

    /**
     * The method.
     *
     * @return the method, {@link HttpMethod#OTHER} for one not named by the enum.
     */
    public HttpMethod method()
    {
        return method;
    }

    /**
     * The method as sent.
     *
     * @return a reused view.
     */
    public AsciiView methodToken()
    {
        return view.wrap(buffer, base, base + methodEnd);
    }

    /**
     * The request target as sent: origin-form ({@code /a?b}), absolute-form or {@code *}.
     *
     * @return a reused view.
     */
    public AsciiView target()
    {
        return view.wrap(buffer, base + targetStart, base + targetEnd);
    }

    /**
     * The path, without the query; for an absolute-form target, the path after the authority.
     *
     * @return a view reused by the next call to this method, still percent-encoded.
     */
    public AsciiView path()
    {
        return pathView.wrap(buffer, base + pathStart, base + pathEnd);
    }

    /**
     * The query, after {@code ?}.
     *
     * @return a reused view, or null when the target has no query.
     */
    public AsciiView query()
    {
        return queryStart < 0 ? null : view.wrap(buffer, base + queryStart, base + queryEnd);
    }

    /**
     * Whether the path is exactly this text.
     *
     * @param text the path.
     * @return true if equal.
     */
    public boolean pathEquals(final CharSequence text)
    {
        return Ascii.equals(buffer, base + pathStart, base + pathEnd, text);
    }

    /**
     * The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
     *
     * @return the minor version.
     */
    public int minorVersion()
    {
        return minorVersion;
    }

    /**
     * Whether the connection stays open after this request's response (version and {@code Connection}).
     *
     * @return true to keep it open.
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
        return view.wrap(buffer, base + nameStart[index], base + nameEnd[index]);
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
        return view.wrap(buffer, base + valueStart[index], base + valueEnd[index]);
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
        return index < 0 ? null : view.wrap(buffer, base + valueStart[index], base + valueEnd[index]);
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
        return index >= 0 && Ascii.equalsIgnoreCase(buffer, base + valueStart[index], base + valueEnd[index], value);
    }

    /**
     * Whether the request has a field with this name.
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
        return HeaderFieldParser.indexOf(buffer, base, nameStart, nameEnd, headerCount, name);
    }

    /**
     * The declared Content-Length.
     *
     * @return bytes, or -1 without one (chunked, or no body).
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
     * Whether {@link #body()} holds the whole body; false when it is streamed to a {@link BodyListener}.
     *
     * @return true when the body is here.
     */
    public boolean isBodyComplete()
    {
        return bodyComplete;
    }

    /**
     * The whole body (de-chunked), a view of the read buffer.
     *
     * @return a reused buffer between position and limit; empty when there is none or it is streamed.
     */
    public ByteBuffer body()
    {
        if (bodyViewOf != buffer)
        {
            bodyViewOf = buffer;
            bodyView = buffer.duplicate(); // once per read buffer, that is once per connection
        }
        final int start = base + bodyStart;
        final int length = bodyComplete ? bodyLength : 0;
        bodyView.limit(start + length).position(start);
        return bodyView;
    }

    /**
     * Streams a body too large to hold: call during {@link HttpHandler#handle} when {@link #isBodyComplete()}
     * is false. Without a listener, the body is read and dropped.
     *
     * @param listener receives the body's bytes and its end.
     */
    public void bodyListener(final BodyListener listener)
    {
        this.bodyListener = listener;
    }

    /**
     * The request's number on its connection, from 0.
     *
     * @return the sequence.
     */
    public long sequence()
    {
        return sequence;
    }

    private void checkIndex(final int index)
    {
        java.util.Objects.checkIndex(index, headerCount);
    }

    @Override
    public String toString()
    {
        return method + " " + target() + " HTTP/1." + minorVersion;
    }
}
