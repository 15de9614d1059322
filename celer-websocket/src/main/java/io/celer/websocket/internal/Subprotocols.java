package io.celer.websocket.internal;

/**
 * Chooses a subprotocol (RFC 6455 section 4.2.2) from a client's Sec-WebSocket-Protocol list.
 */
public final class Subprotocols
{
    private Subprotocols()
    {
    }

    /**
     * The first of the server's subprotocols, in its order of preference, that the client offered.
     *
     * @param offered   the header's value: tokens separated by commas and optional whitespace; may be null.
     * @param supported the server's subprotocols, most preferred first.
     * @return one of {@code supported} (the same instance), or null when none was offered.
     */
    public static String select(final CharSequence offered, final String[] supported)
    {
        if (offered == null)
        {
            return null;
        }
        for (final String candidate : supported)
        {
            if (offers(offered, candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Whether a list offers a subprotocol; subprotocol names compare exactly (they are case-sensitive).
     *
     * @param offered  the header's value.
     * @param protocol the name.
     * @return true when it is one of the tokens.
     */
    public static boolean offers(final CharSequence offered, final CharSequence protocol)
    {
        final int n = offered.length();
        int i = 0;
        while (i < n)
        {
            while (i < n && (offered.charAt(i) == ' ' || offered.charAt(i) == '\t' || offered.charAt(i) == ','))
            {
                i++;
            }
            final int start = i;
            while (i < n && offered.charAt(i) != ',' && offered.charAt(i) != ' ' && offered.charAt(i) != '\t')
            {
                i++;
            }
            if (i - start == protocol.length() && regionMatches(offered, start, protocol))
            {
                return true;
            }
            while (i < n && offered.charAt(i) != ',')
            {
                i++;
            }
        }
        return false;
    }

    private static boolean regionMatches(final CharSequence text, final int start, final CharSequence token)
    {
        for (int k = 0; k < token.length(); k++)
        {
            if (text.charAt(start + k) != token.charAt(k))
            {
                return false;
            }
        }
        return true;
    }
}
