package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.http.AsciiView;
import io.celer.http.HttpMethod;
import io.celer.http.internal.Ascii;
import io.celer.http.internal.ChunkedDecoder;
import io.celer.http.internal.HeadFields;
import io.celer.http.internal.HeadScanner;

/**
 * One request, a flyweight over the connection's read buffer: nothing is copied and no String is made.
 *
 * <p>Valid only during {@link HttpHandler#handle}; a handler that answers later copies what it needs first.
 * Header names are matched ignoring case; views returned by lookups are reused by the next lookup.
 */
public final class HttpRequest
{
    final HeadFields head;
    /** How far a head that comes in parts was scanned, across reads; the parser's, and not cleared by reset. */
    final HeadScanner scanner = new HeadScanner();
    /** Decodes a chunked body; made for the first one this table serves, and lent with it. */
    ChunkedDecoder chunked;
    HttpMethod method;
    int methodEnd;
    int targetStart;
    int targetEnd;
    boolean targetEncoded;
    int pathStart;
    int pathEnd;
    int queryStart;
    int queryEnd;
    int headEnd;
    boolean expectContinue;
    boolean upgrade;
    int hostIndex;
    int bodyStart;
    int bodyLength;
    boolean bodyComplete;
    long sequence;
    BodyListener bodyListener;
    /**
     * How far its connection has read it: the head's length, the chunked body's framing scanned and bytes held,
     * the body's bytes received and still to come, those of the streamed body's rate window, and the listener a
     * streamed body goes to now. Here rather than in the connection, which holds a request only while one is in
     * progress: an idle keep-alive connection keeps none of it.
     */
    int headLength;
    int scan;
    int held;
    long received;
    long bodyRemaining;
    long windowBytes;
    BodyListener streamingTo;
    /** The route's handler a {@link Router} chose, for naming a stall's culprit; null without a router. */
    HttpHandler routed;

    private final AsciiView pathView = new AsciiView();
    private ByteBuffer bodyView;
    private ByteBuffer bodyViewOf;

    HttpRequest(final int maxHeaders)
    {
        head = new HeadFields(maxHeaders);
    }

    void reset()
    {
        head.clear();
        method = HttpMethod.OTHER;
        queryStart = queryEnd = -1;
        expectContinue = false;
        upgrade = false;
        hostIndex = -1;
        bodyStart = 0;
        bodyLength = 0;
        bodyComplete = true;
        bodyListener = null;
        routed = null;
    }

    void attach(final ByteBuffer buffer, final int base)
    {
        head.attach(buffer, base);
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
        return head.view(0, methodEnd);
    }

    /**
     * The request target as sent: origin-form ({@code /a?b}), absolute-form or {@code *}.
     *
     * @return a reused view.
     */
    public AsciiView target()
    {
        return head.view(targetStart, targetEnd);
    }

    /**
     * The path, without the query; for an absolute-form target, the path after the authority.
     *
     * @return a view reused by the next call to this method, still percent-encoded ({@link #decodePath}).
     */
    public AsciiView path()
    {
        return pathView.wrap(head.buffer(), head.base() + pathStart, head.base() + pathEnd);
    }

    /**
     * The path with its percent-escapes decoded, into the caller's array: the bytes of what was encoded (UTF-8
     * text, as a rule), {@code %2F} a '/' like any other. No String is made.
     *
     * @param into where the decoded bytes go.
     * @return how many were written, or -1 when {@code into} is too small.
     */
    public int decodePath(final byte[] into)
    {
        return PercentCoding.decode(head.buffer(), head.base() + pathStart, head.base() + pathEnd, into);
    }

    /**
     * The query, after {@code ?}.
     *
     * @return a reused view, or null when the target has no query.
     */
    public AsciiView query()
    {
        return queryStart < 0 ? null : head.view(queryStart, queryEnd);
    }

    /**
     * Whether the path is exactly this text.
     *
     * @param text the path.
     * @return true if equal.
     */
    public boolean pathEquals(final CharSequence text)
    {
        return Ascii.equals(head.buffer(), head.base() + pathStart, head.base() + pathEnd, text);
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
        final ByteBuffer buffer = head.buffer();
        if (bodyViewOf != buffer)
        {
            bodyViewOf = buffer;
            bodyView = buffer.duplicate(); // once per read buffer, that is once per connection
        }
        final int start = head.base() + bodyStart;
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

    @Override
    public String toString()
    {
        return method + " " + target() + " HTTP/1." + head.minorVersion();
    }
}
