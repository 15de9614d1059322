package io.celer.websocket.server;

/**
 * Decides whether a handshake's Origin may open a WebSocket (RFC 6455 section 10.2); a refused one gets 403.
 */
@FunctionalInterface
public interface OriginCheck
{
    /**
     * Whether the origin is allowed.
     *
     * @param origin the Origin header's value, or null when the request had none (a non-browser client).
     * @return true to go on with the handshake.
     */
    boolean allows(CharSequence origin);

    /**
     * Allows every origin, and requests without one.
     *
     * @return the check.
     */
    static OriginCheck any()
    {
        return origin -> true;
    }

    /**
     * Allows the listed origins (compared without regard to ASCII case, as scheme and host are) and requests
     * without an Origin header.
     *
     * @param origins serialized origins, such as {@code https://example.com:8443}.
     * @return the check.
     */
    static OriginCheck allowing(final String... origins)
    {
        final String[] allowed = origins.clone();
        return origin ->
        {
            if (origin == null)
            {
                return true;
            }
            for (final String candidate : allowed)
            {
                if (equalsIgnoreAsciiCase(candidate, origin))
                {
                    return true;
                }
            }
            return false;
        };
    }

    /**
     * Compares without regard to ASCII case, allocating nothing.
     *
     * @param a one.
     * @param b the other.
     * @return true when equal but for ASCII case.
     */
    static boolean equalsIgnoreAsciiCase(final CharSequence a, final CharSequence b)
    {
        if (a.length() != b.length())
        {
            return false;
        }
        for (int i = 0; i < a.length(); i++)
        {
            char x = a.charAt(i);
            char y = b.charAt(i);
            x = x >= 'A' && x <= 'Z' ? (char)(x + 32) : x;
            y = y >= 'A' && y <= 'Z' ? (char)(y + 32) : y;
            if (x != y)
            {
                return false;
            }
        }
        return true;
    }
}
