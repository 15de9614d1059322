package io.celer.http.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.celer.http.internal.Ascii;

/**
 * The characters of a request target and their percent-encoding (RFC 3986, 2): which bytes a target may hold,
 * decoding a path into a caller's array, and matching a path against a route the way RFC 3986, 6.2.2 says two
 * paths are the same (an encoded unreserved character is that character; hex digits in either case). Written
 * here because the JDK's decoders make Strings.
 */
final class PercentCoding
{
    private static final boolean[] TARGET_CHAR = new boolean[256];
    private static final boolean[] UNRESERVED = new boolean[256];

    static
    {
        for (int c = 0; c < 128; c++)
        {
            UNRESERVED[c] = Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0;
            // unreserved, sub-delims, the gen-delims but '#', and '%' (checked for its two digits apart)
            TARGET_CHAR[c] = UNRESERVED[c] || "!$&'()*+,;=:@/?[]%".indexOf(c) >= 0;
        }
    }

    private PercentCoding()
    {
    }

    /** Whether a byte may appear in a request target as sent. */
    static boolean isTargetChar(final int b)
    {
        return TARGET_CHAR[b & 0xFF];
    }

    /**
     * Decodes a path whose escapes the parser checked.
     *
     * @return the decoded length, or -1 when {@code into} is too small.
     */
    static int decode(final ByteBuffer buffer, final int from, final int to, final byte[] into)
    {
        int n = 0;
        for (int i = from; i < to; n++)
        {
            if (n == into.length)
            {
                return -1;
            }
            final byte b = buffer.get(i);
            if (b == '%')
            {
                into[n] = (byte)(Ascii.hexValue(buffer.get(i + 1)) << 4 | Ascii.hexValue(buffer.get(i + 2)));
                i += 3;
            }
            else
            {
                into[n] = b;
                i++;
            }
        }
        return n;
    }

    /**
     * Matches the start of a path, whose escapes the parser checked, against a route's {@link #normalize
     * normalized} path.
     *
     * @return how many of the path's bytes the route covers, or -1 if it does not match.
     */
    static int match(final ByteBuffer buffer, final int from, final int to, final byte[] route)
    {
        int i = from;
        int k = 0;
        while (k < route.length)
        {
            if (i == to)
            {
                return -1;
            }
            final byte b = buffer.get(i);
            if (b != '%')
            {
                if (b != route[k])
                {
                    return -1;
                }
                i++;
                k++;
                continue;
            }
            final int high = buffer.get(i + 1);
            final int low = buffer.get(i + 2);
            final int decoded = Ascii.hexValue(high) << 4 | Ascii.hexValue(low);
            if (UNRESERVED[decoded])
            {
                if (decoded != route[k])
                {
                    return -1;
                }
                k++;
            }
            else
            {
                if (k + 2 >= route.length || route[k] != '%' || Ascii.lower(high) != route[k + 1] ||
                    Ascii.lower(low) != route[k + 2])
                {
                    return -1;
                }
                k += 3;
            }
            i += 3;
        }
        return i - from;
    }

    /**
     * A route's path in the form {@link #match} compares with: encoded unreserved characters decoded, other
     * escapes in lower case.
     *
     * @throws IllegalArgumentException for a character a target may not hold or a broken escape.
     */
    static byte[] normalize(final String path)
    {
        final byte[] raw = path.getBytes(StandardCharsets.UTF_8);
        final byte[] out = new byte[raw.length];
        int n = 0;
        for (int i = 0; i < raw.length; i++)
        {
            final int b = raw[i] & 0xFF;
            if (!isTargetChar(b) || b == '?')
            {
                throw new IllegalArgumentException("a route's path holds '" + (char)b +
                    "': percent-encode it (RFC 3986): " + path);
            }
            if (b != '%')
            {
                out[n++] = (byte)b;
                continue;
            }
            if (i + 2 >= raw.length || Ascii.hexValue(raw[i + 1]) < 0 || Ascii.hexValue(raw[i + 2]) < 0)
            {
                throw new IllegalArgumentException("a broken percent-escape in a route's path: " + path);
            }
            final int decoded = Ascii.hexValue(raw[i + 1]) << 4 | Ascii.hexValue(raw[i + 2]);
            if (UNRESERVED[decoded])
            {
                out[n++] = (byte)decoded;
            }
            else
            {
                out[n++] = '%';
                out[n++] = (byte)Ascii.lower(raw[i + 1]);
                out[n++] = (byte)Ascii.lower(raw[i + 2]);
            }
            i += 2;
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
