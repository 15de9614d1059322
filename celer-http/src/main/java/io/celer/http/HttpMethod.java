package io.celer.http;

import java.nio.ByteBuffer;

import io.celer.http.internal.Ascii;

/**
 * The request methods a server tells apart; any other valid token is {@link #OTHER}, and its text is in
 * {@link io.celer.http.server.HttpRequest#methodToken()}.
 */
public enum HttpMethod
{
    /** GET. */
    GET,
    /** HEAD: as GET, without a body in the response. */
    HEAD,
    /** POST. */
    POST,
    /** PUT. */
    PUT,
    /** DELETE. */
    DELETE,
    /** OPTIONS. */
    OPTIONS,
    /** PATCH. */
    PATCH,
    /** TRACE. */
    TRACE,
    /** CONNECT. */
    CONNECT,
    /** A method token this enum does not name. */
    OTHER;

    private static final HttpMethod[] KNOWN = {GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, TRACE, CONNECT};

    private final byte[] token = name().getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * The method a token names; methods are case-sensitive (RFC 9110, 9.1).
     *
     * @param buffer holds the token.
     * @param start  absolute index of its first byte.
     * @param end    absolute index after its last byte.
     * @return the method, or {@link #OTHER}.
     */
    public static HttpMethod of(final ByteBuffer buffer, final int start, final int end)
    {
        final int length = end - start;
        for (final HttpMethod method : KNOWN)
        {
            final byte[] t = method.token;
            if (t.length == length && Ascii.equals(buffer, start, t))
            {
                return method;
            }
        }
        return OTHER;
    }
}
