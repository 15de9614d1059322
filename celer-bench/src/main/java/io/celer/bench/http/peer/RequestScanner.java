package io.celer.bench.http.peer;

/**
 * Finds one HTTP/1.x request head in bytes received, for the peers that parse HTTP by hand: its route, its
 * version and whether the connection stays open. Reused per connection; bodies are not expected (GET only).
 */
final class RequestScanner
{
    /** {@code GET /plaintext}. */
    static final int PLAINTEXT = 1;
    /** {@code GET /gettimeblock}. */
    static final int TIME_BLOCK = 2;
    /** Anything else. */
    static final int NOT_FOUND = 3;

    private static final byte[] PLAINTEXT_PATH = ascii("/plaintext");
    private static final byte[] TIME_BLOCK_PATH = ascii("/gettimeblock");
    private static final byte[] CONNECTION = ascii("connection:");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");

    private int route;
    private boolean http10;
    private boolean keepAlive;

    /**
     * Looks for a complete request head.
     *
     * @param buf  the bytes received.
     * @param from the first unread byte.
     * @param to   after the last byte received.
     * @return the offset after the head's blank line, or -1 while incomplete.
     */
    int scan(final byte[] buf, final int from, final int to)
    {
        final int end = headEnd(buf, from, to);
        if (end < 0)
        {
            return -1;
        }
        final int lineEnd = indexOf(buf, from, end, (byte)'\r');
        final int pathStart = indexOf(buf, from, lineEnd, (byte)' ') + 1;
        int pathEnd = pathStart > 0 ? indexOf(buf, pathStart, lineEnd, (byte)' ') : -1;
        if (pathStart <= 0 || pathEnd < 0)
        {
            route = NOT_FOUND;
            http10 = true;
            keepAlive = false;
            return end;
        }
        final int query = indexOf(buf, pathStart, pathEnd, (byte)'?');
        final int versionStart = pathEnd + 1;
        if (query >= 0)
        {
            pathEnd = query;
        }
        route = equals(buf, pathStart, pathEnd, PLAINTEXT_PATH) ? PLAINTEXT
            : equals(buf, pathStart, pathEnd, TIME_BLOCK_PATH) ? TIME_BLOCK : NOT_FOUND;
        http10 = lineEnd - versionStart == 8 && buf[lineEnd - 1] == '0';
        keepAlive = !http10;
        for (int line = lineEnd + 2; line < end - 2; line = indexOf(buf, line, end, (byte)'\n') + 1)
        {
            if (startsWithIgnoreCase(buf, line, end, CONNECTION))
            {
                final int valueEnd = indexOf(buf, line, end, (byte)'\r');
                if (containsIgnoreCase(buf, line + CONNECTION.length, valueEnd, CLOSE))
                {
                    keepAlive = false;
                }
                else if (containsIgnoreCase(buf, line + CONNECTION.length, valueEnd, KEEP_ALIVE))
                {
                    keepAlive = true;
                }
            }
        }
        return end;
    }

    /**
     * The last request's route.
     *
     * @return {@link #PLAINTEXT}, {@link #TIME_BLOCK} or {@link #NOT_FOUND}.
     */
    int route()
    {
        return route;
    }

    /**
     * Whether the last request was HTTP/1.0, whose keep-alive must be said in the response.
     *
     * @return true for HTTP/1.0.
     */
    boolean http10()
    {
        return http10;
    }

    /**
     * Whether the connection stays open after the last request, by its version and Connection header.
     *
     * @return true to keep it.
     */
    boolean keepAlive()
    {
        return keepAlive;
    }

    private static int headEnd(final byte[] buf, final int from, final int to)
    {
        for (int i = from + 3; i < to; i++)
        {
            if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r')
            {
                return i + 1;
            }
        }
        return -1;
    }

    private static int indexOf(final byte[] buf, final int from, final int to, final byte b)
    {
        for (int i = from; i < to; i++)
        {
            if (buf[i] == b)
            {
                return i;
            }
        }
        return -1;
    }

    private static boolean equals(final byte[] buf, final int from, final int to, final byte[] expected)
    {
        if (to - from != expected.length)
        {
            return false;
        }
        for (int i = 0; i < expected.length; i++)
        {
            if (buf[from + i] != expected[i])
            {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWithIgnoreCase(final byte[] buf, final int from, final int to, final byte[] lower)
    {
        if (to - from < lower.length)
        {
            return false;
        }
        for (int i = 0; i < lower.length; i++)
        {
            if ((buf[from + i] | 0x20) != lower[i])
            {
                return false;
            }
        }
        return true;
    }

    private static boolean containsIgnoreCase(final byte[] buf, final int from, final int to, final byte[] lower)
    {
        for (int i = from; i <= to - lower.length; i++)
        {
            if (startsWithIgnoreCase(buf, i, to, lower))
            {
                return true;
            }
        }
        return false;
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
