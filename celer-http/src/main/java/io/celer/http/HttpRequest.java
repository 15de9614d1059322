package io.celer.http;

import java.nio.ByteBuffer;

/**
 * One request, a flyweight over the connection's read buffer: nothing is copied and no String is made.
 *
 * <p>Valid only during {@link HttpHandler#handle}; a handler that answers later copies what it needs first.
 * Header names are matched ignoring case; views returned by lookups are reused by the next lookup.
 */
public final class HttpRequest extends ReceivedHead
{
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

    private final AsciiView pathView = new AsciiView();
    private ByteBuffer bodyView;
    private ByteBuffer bodyViewOf;

    HttpRequest(final int maxHeaders)
    {
        super(maxHeaders);
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
     * @return a view reused by the next call to this method, still percent-encoded ({@link #decodePath}).
     */
    public AsciiView path()
    {
        return pathView.wrap(buffer, base + pathStart, base + pathEnd);
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
        return PercentCoding.decode(buffer, base + pathStart, base + pathEnd, into);
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

    @Override
    public String toString()
    {
        return method + " " + target() + " HTTP/1." + minorVersion;
    }
}
