package io.celer.http.client;

import java.nio.ByteBuffer;

import io.celer.http.HttpMethod;

/**
 * One request from send to its end: its encoded bytes (kept until the response, so that it can be sent again on
 * another connection), its listener, deadline and attempts. Pooled by the client; linked into its free list or
 * its queue of requests waiting for a connection.
 *
 * <p>The buffer holds the request line and the caller's fields, then the body; the Host field and the empty
 * line go between them as the request is written, since they depend on the connection it goes out on.
 */
final class Exchange
{
    final ByteBuffer buffer;
    private final ByteBuffer headView;
    private final ByteBuffer bodyView;

    HttpMethod method;
    ResponseListener listener;
    long tag;
    long deadline;
    /** {@code System.nanoTime()} when the client took it, for its latency; 0 with counters off. */
    long sentNanos;
    int attempts;
    // The host whose connection lost this request after writing it, -1 for none: its retry goes elsewhere.
    int suspectHost = -1;
    boolean hostSet;
    boolean bodySet;
    boolean overflow;
    int headEnd;
    int bodyStart;
    Exchange next;

    Exchange(final int maxRequestSize)
    {
        buffer = ByteBuffer.allocate(maxRequestSize);
        headView = buffer.duplicate();
        bodyView = buffer.duplicate();
    }

    void clear()
    {
        buffer.clear();
        method = null;
        listener = null;
        tag = 0;
        deadline = 0;
        sentNanos = 0;
        attempts = 0;
        suspectHost = -1;
        hostSet = false;
        bodySet = false;
        overflow = false;
        headEnd = 0;
        bodyStart = 0;
        next = null;
    }

    /** Whether a retry on another connection is safe after this was written to a lost one (RFC 9110, 9.2.2). */
    boolean isIdempotent()
    {
        switch (method)
        {
            case GET:
            case HEAD:
            case PUT:
            case DELETE:
            case OPTIONS:
            case TRACE:
                return true;
            default:
                return false;
        }
    }

    /** The caller's part of the head: request line and fields, without the Host field and the empty line. */
    ByteBuffer head()
    {
        headView.limit(headEnd).position(0);
        return headView;
    }

    /** The body, empty without one. */
    ByteBuffer body()
    {
        bodyView.limit(buffer.position()).position(bodyStart);
        return bodyView;
    }

    /** Bytes on the wire besides the Host field and the empty line. */
    int length()
    {
        return headEnd + buffer.position() - bodyStart;
    }

    @Override
    public String toString()
    {
        final StringBuilder line = new StringBuilder();
        for (int i = 0; i < headEnd && buffer.get(i) != '\r'; i++)
        {
            line.append((char)(buffer.get(i) & 0xFF));
        }
        return line.toString();
    }
}
