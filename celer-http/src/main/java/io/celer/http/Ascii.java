package io.celer.http;

import java.nio.ByteBuffer;

/**
 * Byte-level ASCII helpers over buffers and char sequences; written by hand because the hot path may not
 * make Strings, and no library compares a ByteBuffer region with a CharSequence without one.
 */
final class Ascii
{
    private static final boolean[] TCHAR = new boolean[256];
    private static final boolean[] FIELD_VCHAR = new boolean[256];
    private static final boolean[] HOST_CHAR = new boolean[256];

    static
    {
        for (int c = '0'; c <= '9'; c++)
        {
            TCHAR[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++)
        {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (final char c : "!#$%&'*+-.^_`|~".toCharArray())
        {
            TCHAR[c] = true;
        }
        for (int c = 0x21; c <= 0xFF; c++)
        {
            FIELD_VCHAR[c] = c != 0x7F;
        }
        for (int c = 0; c < 128; c++)
        {
            HOST_CHAR[c] = Character.isLetterOrDigit(c) || "-._~!$&'()*+,;=:%[]".indexOf(c) >= 0;
        }
    }

    /** Whether a byte may appear in a Host value: uri-host and port (RFC 3986, 3.2.2). */
    static boolean isHostChar(final int b)
    {
        return HOST_CHAR[b & 0xFF];
    }

    private Ascii()
    {
    }

    /** Whether a byte may appear in a token (RFC 9110, 5.6.2). */
    static boolean isTchar(final int b)
    {
        return TCHAR[b & 0xFF];
    }

    /** Whether a byte is a visible char or obs-text, as a field value may hold besides SP and HTAB. */
    static boolean isFieldVchar(final int b)
    {
        return FIELD_VCHAR[b & 0xFF];
    }

    /** Throws unless the name is a token, so that a response field cannot inject another. */
    static void checkFieldName(final CharSequence name)
    {
        if (name.length() == 0)
        {
            throw new IllegalArgumentException("a field name must not be empty");
        }
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c > 255 || !isTchar(c))
            {
                throw new IllegalArgumentException("a field name must be a token: " + name);
            }
        }
    }

    /** Throws if the value holds CR or LF, which would split the response. */
    static void checkFieldValue(final CharSequence value)
    {
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if (c == '\r' || c == '\n')
            {
                throw new IllegalArgumentException("a field value must not hold CR or LF");
            }
        }
    }

    static int lower(final int b)
    {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    /** A hex digit's value, either case, or -1. */
    static int hexValue(final int b)
    {
        if (b >= '0' && b <= '9')
        {
            return b - '0';
        }
        final int lower = b | 0x20;
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    /**
     * The bytes from {@code from} to {@code to} as a non-negative decimal number: 1 to 18 digits, so that it
     * cannot overflow; -1 for anything else.
     */
    static long decimal(final ByteBuffer buffer, final int from, final int to)
    {
        if (to == from || to - from > 18)
        {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++)
        {
            final int b = buffer.get(i);
            if (b < '0' || b > '9')
            {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    static boolean equals(final ByteBuffer buffer, final int start, final byte[] bytes)
    {
        for (int i = 0; i < bytes.length; i++)
        {
            if (buffer.get(start + i) != bytes[i])
            {
                return false;
            }
        }
        return true;
    }

    static boolean equalsIgnoreCase(final ByteBuffer buffer, final int start, final int end, final CharSequence text)
    {
        final int length = text.length();
        if (end - start != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (lower(buffer.get(start + i)) != lower(text.charAt(i)))
            {
                return false;
            }
        }
        return true;
    }

    static boolean equals(final ByteBuffer buffer, final int start, final int end, final CharSequence text)
    {
        final int length = text.length();
        if (end - start != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if ((buffer.get(start + i) & 0xFF) != text.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a comma-separated list (a field value) holds a token, ignoring case and optional whitespace.
     */
    static boolean listContains(final ByteBuffer buffer, final int start, final int end, final CharSequence token)
    {
        int i = start;
        while (i < end)
        {
            while (i < end && (buffer.get(i) == ' ' || buffer.get(i) == '\t' || buffer.get(i) == ','))
            {
                i++;
            }
            int e = i;
            while (e < end && buffer.get(e) != ',')
            {
                e++;
            }
            int last = e;
            while (last > i && (buffer.get(last - 1) == ' ' || buffer.get(last - 1) == '\t'))
            {
                last--;
            }
            if (last > i && equalsIgnoreCase(buffer, i, last, token))
            {
                return true;
            }
            i = e + 1;
        }
        return false;
    }

    /** Writes text as one byte per char ({@code ?} above 255). */
    static void put(final ByteBuffer out, final CharSequence text)
    {
        put(out, text, 0, text.length());
    }

    /** Writes characters {@code from} to {@code to} of a text, as {@link #put(ByteBuffer, CharSequence)} does. */
    static void put(final ByteBuffer out, final CharSequence text, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final char c = text.charAt(i);
            out.put(c < 256 ? (byte)c : (byte)'?');
        }
    }

    /** Writes a non-negative decimal number. */
    static void putDecimal(final ByteBuffer out, final long value)
    {
        if (value < 10)
        {
            out.put((byte)('0' + value));
            return;
        }
        long divisor = 1;
        while (value / divisor >= 10)
        {
            divisor *= 10;
        }
        for (long d = divisor; d > 0; d /= 10)
        {
            out.put((byte)('0' + (value / d) % 10));
        }
    }

    /** Writes a number in lower-case hexadecimal. */
    static void putHex(final ByteBuffer out, final long value)
    {
        int shift = 60;
        while (shift > 0 && ((value >>> shift) & 0xF) == 0)
        {
            shift -= 4;
        }
        for (; shift >= 0; shift -= 4)
        {
            final int nibble = (int)((value >>> shift) & 0xF);
            out.put((byte)(nibble < 10 ? '0' + nibble : 'a' + nibble - 10));
        }
    }
}
