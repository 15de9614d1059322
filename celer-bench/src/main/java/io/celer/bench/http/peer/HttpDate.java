package io.celer.bench.http.peer;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header's value, IMF-fixdate as HTTP wants it, remade at most once a second.
 */
public final class HttpDate
{
    private static final DateTimeFormatter FORMAT =
        DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private static volatile Cached cached = new Cached(-1, "");

    private HttpDate()
    {
    }

    /**
     * Now, formatted.
     *
     * @return e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT}.
     */
    public static String now()
    {
        final long second = System.currentTimeMillis() / 1000;
        Cached current = cached;
        if (current.second != second)
        {
            // Racing threads format the same second twice at worst.
            current = new Cached(second, FORMAT.format(ZonedDateTime.now(ZoneOffset.UTC)));
            cached = current;
        }
        return current.text;
    }

    /**
     * Now, as ASCII bytes, shared: callers must not change them.
     *
     * @return the bytes of {@link #now()}.
     */
    public static byte[] nowBytes()
    {
        now();
        return cached.bytes;
    }

    private static final class Cached
    {
        final long second;
        final String text;
        final byte[] bytes;

        Cached(final long second, final String text)
        {
            this.second = second;
            this.text = text;
            this.bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
