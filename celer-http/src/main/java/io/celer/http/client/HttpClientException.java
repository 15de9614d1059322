package io.celer.http.client;

import java.io.IOException;

/**
 * Why a request sent by an {@link HttpClient} got no response; handed to {@link ResponseListener#error},
 * never thrown by the client. Made only when a request fails, off the steady-state path.
 */
public final class HttpClientException extends IOException
{
    private static final long serialVersionUID = 1L;

    /** The kinds of failure. */
    public enum Reason
    {
        /** No connection to any host could be made (refused, timed out, TLS handshake or certificate). */
        CONNECT_FAILED,
        /** The connection closed after the request was written, and the request may not be retried. */
        CONNECTION_CLOSED,
        /** No complete response within the response timeout, counted from send. */
        RESPONSE_TIMEOUT,
        /** The response broke HTTP/1.1 (status line, framing, field syntax, a limit). */
        PROTOCOL_ERROR,
        /** The request could not be taken: too many pending requests, too large, or the client is closed. */
        REJECTED
    }

    /** The kind of failure. */
    private final Reason reason;
    /** The failed request's tag. */
    private final long tag;

    /**
     * A failure.
     *
     * @param reason  its kind.
     * @param tag     the request's tag.
     * @param message what happened, for people.
     * @param cause   the underlying error, or null.
     */
    public HttpClientException(final Reason reason, final long tag, final String message, final Throwable cause)
    {
        super(reason + ": " + message, cause);
        this.reason = reason;
        this.tag = tag;
    }

    /**
     * The kind of failure.
     *
     * @return the reason.
     */
    public Reason reason()
    {
        return reason;
    }

    /**
     * The tag the failed request was sent with.
     *
     * @return the tag.
     */
    public long tag()
    {
        return tag;
    }
}
