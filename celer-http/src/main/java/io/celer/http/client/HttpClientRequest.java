package io.celer.http.client;

import java.nio.ByteBuffer;

import io.celer.http.HttpMethod;
import io.celer.http.internal.Ascii;

/**
 * The request being built, a flyweight the caller fills and sends without allocating: from
 * {@link HttpClient#request}, then fields, an optional body and {@link #send}. Reactor thread only; the client
 * hands out the same object for every request, so it must be sent before the next one is begun.
 *
 * <pre>{@code
 * client.request(HttpMethod.POST, "/orders").header("Content-Type", "application/json").body(json).send(listener);
 * }</pre>
 *
 * <p>The client writes the Host field (unless the caller does), Content-Length and the framing; a caller may not
 * set Content-Length or Transfer-Encoding. A request larger than {@link HttpClientConfig#maxRequestSize} fails
 * with {@link HttpClientException.Reason#REJECTED} when sent.
 */
public final class HttpClientRequest
{
    private static final byte[] VERSION = {' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1', '\r', '\n'};
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final HttpClient client;
    private Exchange exchange;
    private long tag;
    private boolean rejected;

    HttpClientRequest(final HttpClient client)
    {
        this.client = client;
    }

    /** Starts a request on a pooled exchange, or a rejected one when there is none. */
    HttpClientRequest begin(final Exchange claimed, final HttpMethod method, final CharSequence target)
    {
        if (method == null || method == HttpMethod.OTHER || method == HttpMethod.CONNECT)
        {
            throw new IllegalArgumentException("method must be a named method other than CONNECT: " + method);
        }
        checkTarget(target);
        exchange = claimed;
        tag = 0;
        rejected = claimed == null;
        if (claimed != null)
        {
            claimed.method = method;
            final ByteBuffer out = claimed.buffer;
            if (out.remaining() < method.name().length() + 1 + target.length() + VERSION.length)
            {
                claimed.overflow = true;
                return this;
            }
            Ascii.put(out, method.name());
            out.put((byte)' ');
            Ascii.put(out, target);
            out.put(VERSION);
        }
        return this;
    }

    /**
     * Adds a header field.
     *
     * @param name  a token; not Content-Length nor Transfer-Encoding.
     * @param value text without CR or LF.
     * @return this.
     * @throws IllegalArgumentException for a bad name or value.
     * @throws IllegalStateException after the body.
     */
    public HttpClientRequest header(final CharSequence name, final CharSequence value)
    {
        checkField(name);
        Ascii.checkFieldValue(value);
        final ByteBuffer out = openField(name, value.length());
        if (out != null)
        {
            Ascii.put(out, value);
            out.put((byte)'\r').put((byte)'\n');
        }
        return this;
    }

    /**
     * Adds a header field with a number as its value.
     *
     * @param name  a token; not Content-Length nor Transfer-Encoding.
     * @param value the number, not negative.
     * @return this.
     */
    public HttpClientRequest header(final CharSequence name, final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("value must not be negative: " + value);
        }
        checkField(name);
        final ByteBuffer out = openField(name, 20);
        if (out != null)
        {
            Ascii.putDecimal(out, value);
            out.put((byte)'\r').put((byte)'\n');
        }
        return this;
    }

    /** Writes a field's name and colon when the field fits: the buffer its value and CRLF go to next, or null. */
    private ByteBuffer openField(final CharSequence name, final int maxValueLength)
    {
        if (exchange == null || !room(name.length() + maxValueLength + 4))
        {
            return null;
        }
        final ByteBuffer out = exchange.buffer;
        Ascii.put(out, name);
        out.put((byte)':').put((byte)' ');
        return out;
    }

    /**
     * A number the listener gets back ({@link HttpClientResponse#tag()}, {@link HttpClientException#tag()}) to
     * tell this request's outcome from others' without allocating.
     *
     * @param value any number.
     * @return this.
     */
    public HttpClientRequest tag(final long value)
    {
        this.tag = value;
        return this;
    }

    /**
     * Sets the body, copied now; ends the fields.
     *
     * @param body the bytes.
     * @return this.
     */
    public HttpClientRequest body(final byte[] body)
    {
        return body(body, 0, body.length);
    }

    /**
     * Sets the body from part of an array, copied now; ends the fields.
     *
     * @param body   the array.
     * @param offset first byte.
     * @param length bytes.
     * @return this.
     */
    public HttpClientRequest body(final byte[] body, final int offset, final int length)
    {
        if (startBody(length))
        {
            exchange.buffer.put(body, offset, length);
        }
        return this;
    }

    /**
     * Sets the body from the bytes between position and limit, copied now (the position does not move); ends the
     * fields.
     *
     * @param body the bytes.
     * @return this.
     */
    public HttpClientRequest body(final ByteBuffer body)
    {
        final int length = body.remaining();
        if (startBody(length))
        {
            exchange.buffer.put(exchange.buffer.position(), body, body.position(), length);
            exchange.buffer.position(exchange.buffer.position() + length);
        }
        return this;
    }

    /**
     * Sets the body from text, one byte per char (ISO-8859-1; {@code ?} above 255), copied now; ends the fields.
     *
     * @param body the text.
     * @return this.
     */
    public HttpClientRequest body(final CharSequence body)
    {
        if (startBody(body.length()))
        {
            Ascii.put(exchange.buffer, body);
        }
        return this;
    }

    /**
     * Sends the request: at once on the least busy open connection that can take it, else as soon as one can.
     * Exactly one of the listener's {@link ResponseListener#response} or {@link ResponseListener#error}
     * follows, possibly before this returns (a rejected request).
     *
     * @param listener hears the outcome.
     */
    public void send(final ResponseListener listener)
    {
        if (listener == null)
        {
            throw new IllegalArgumentException("listener must not be null");
        }
        final Exchange sent = exchange;
        exchange = null;
        if (rejected || sent == null)
        {
            rejected = false;
            client.reject(listener, tag, "more than maxPendingRequests requests pending, or none begun");
            return;
        }
        sent.listener = listener;
        sent.tag = tag;
        if (!sent.bodySet && !sent.overflow)
        {
            final HttpMethod method = sent.method;
            if (method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH)
            {
                writeContentLength(sent, 0);
            }
            sent.headEnd = sent.buffer.position();
            sent.bodyStart = sent.headEnd;
        }
        client.send(sent);
    }

    /** Drops a request begun and not sent. */
    void abandon()
    {
        if (exchange != null)
        {
            client.release(exchange);
            exchange = null;
        }
    }

    private boolean startBody(final int length)
    {
        if (exchange == null)
        {
            return false;
        }
        if (exchange.bodySet)
        {
            throw new IllegalStateException("the body is already set");
        }
        exchange.bodySet = true;
        if (!writeContentLength(exchange, length))
        {
            return false;
        }
        exchange.headEnd = exchange.buffer.position();
        exchange.bodyStart = exchange.headEnd;
        return room(length);
    }

    private boolean writeContentLength(final Exchange target, final int length)
    {
        final ByteBuffer out = target.buffer;
        if (target.overflow || out.remaining() < CONTENT_LENGTH.length + 12)
        {
            target.overflow = true;
            return false;
        }
        out.put(CONTENT_LENGTH);
        Ascii.putDecimal(out, length);
        out.put((byte)'\r').put((byte)'\n');
        return true;
    }

    private boolean room(final int bytes)
    {
        if (exchange.overflow || exchange.buffer.remaining() < bytes)
        {
            exchange.overflow = true;
            return false;
        }
        return true;
    }

    private void checkField(final CharSequence name)
    {
        Ascii.checkFieldName(name);
        if (exchange != null && exchange.bodySet)
        {
            throw new IllegalStateException("fields must come before the body");
        }
        if (sameIgnoringCase(name, "content-length") || sameIgnoringCase(name, "transfer-encoding"))
        {
            throw new IllegalArgumentException("the client frames the body itself: " + name);
        }
        if (exchange != null && sameIgnoringCase(name, "host"))
        {
            exchange.hostSet = true;
        }
    }

    private static boolean sameIgnoringCase(final CharSequence a, final String b)
    {
        if (a.length() != b.length())
        {
            return false;
        }
        for (int i = 0; i < b.length(); i++)
        {
            if (Ascii.lower(a.charAt(i)) != b.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private static void checkTarget(final CharSequence target)
    {
        if (target.length() == 0)
        {
            throw new IllegalArgumentException("the target must not be empty");
        }
        for (int i = 0; i < target.length(); i++)
        {
            final char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7F)
            {
                throw new IllegalArgumentException("the target must be visible ASCII (percent-encode the rest)");
            }
        }
    }
}
