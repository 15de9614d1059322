package io.celer.http.internal;

import java.nio.ByteBuffer;

/**
 * Byte-level ASCII helpers over buffers and char sequences; written by hand because the hot path may not
 * make Strings, and no library compares a ByteBuffer region with a CharSequence without one.
 */
public final class Ascii
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

    /**
     * Whether a byte may appear in a Host value: uri-host and port (RFC 3986, 3.2.2).
     *
     * @param b the byte.
     * @return true if it may.
     */
    public static boolean isHostChar(final int b)
    {
        return HOST_CHAR[b & 0xFF];
    }

    private Ascii()
    {
    }

    /**
     * Whether a byte may appear in a token (RFC 9110, 5.6.2).
     *
     * @param b the byte.
     * @return true if it may.
     */
    public static boolean isTchar(final int b)
    {
        return TCHAR[b & 0xFF];
    }

    /**
     * Whether a byte is a visible char or obs-text, as a field value may hold besides SP and HTAB.
     *
     * @param b the byte.
     * @return true if it is.
     */
    public static boolean isFieldVchar(final int b)
    {
        return FIELD_VCHAR[b & 0xFF];
    }

    /**
     * Throws unless the name is a token, so that a field written cannot inject another.
     *
     * @param name the field's name.
     * @throws IllegalArgumentException for an empty name or one with a char a token may not hold.
     */
    public static void checkFieldName(final CharSequence name)
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

    /**
     * Throws if the value holds CR or LF, which would split the message.
     *
     * @param value the field's value.
     * @throws IllegalArgumentException for a CR or LF.
     */
    public static void checkFieldValue(final CharSequence value)
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

    /**
     * An ASCII letter in lower case.
     *
     * @param b a byte or char.
     * @return its lower case, or itself when it is not an upper-case letter.
     */
    public static int lower(final int b)
    {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    /**
     * A hex digit's value, either case.
     *
     * @param b the byte.
     * @return 0 to 15, or -1 for a byte that is not a hex digit.
     */
    public static int hexValue(final int b)
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
     * cannot overflow.
     *
     * @param buffer the bytes.
     * @param from   absolute index of the first digit.
     * @param to     absolute index after the last digit.
     * @return the number, or -1 for anything else.
     */
    public static long decimal(final ByteBuffer buffer, final int from, final int to)
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

    /**
     * Whether the buffer holds these bytes at an index.
     *
     * @param buffer the buffer, with room for them from start.
     * @param start  absolute index where they would begin.
     * @param bytes  the bytes.
     * @return true if equal.
     */
    public static boolean equals(final ByteBuffer buffer, final int start, final byte[] bytes)
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

    /**
     * Whether bytes spell a text, ignoring ASCII case.
     *
     * @param buffer the bytes.
     * @param start  absolute index of the first.
     * @param end    absolute index after the last.
     * @param text   the text.
     * @return true if equal.
     */
    public static boolean equalsIgnoreCase(
        final ByteBuffer buffer, final int start, final int end, final CharSequence text)
    {
        final int length = text.length();
        if (end - start != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            final int b = buffer.get(start + i);
            final int c = text.charAt(i);
            // Most bytes match as they are; only those that do not pay for folding.
            if (b != c && lower(b) != lower(c))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether bytes spell a text given in lower case, ignoring ASCII case: for constants, compared without a
     * {@link CharSequence}'s per-char checks.
     *
     * @param buffer    the bytes.
     * @param start     absolute index of the first.
     * @param end       absolute index after the last.
     * @param lowerCase the text's bytes, no upper-case letter among them.
     * @return true if equal.
     */
    public static boolean equalsLowerCase(
        final ByteBuffer buffer, final int start, final int end, final byte[] lowerCase)
    {
        final int length = lowerCase.length;
        if (end - start != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            final int b = buffer.get(start + i);
            final int c = lowerCase[i];
            if (b != c && (b < 'A' || b > 'Z' || b + 32 != c))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether bytes spell a text exactly, one char per byte.
     *
     * @param buffer the bytes.
     * @param start  absolute index of the first.
     * @param end    absolute index after the last.
     * @param text   the text.
     * @return true if equal.
     */
    public static boolean equals(final ByteBuffer buffer, final int start, final int end, final CharSequence text)
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
     *
     * @param buffer the bytes.
     * @param start  absolute index of the list's first byte.
     * @param end    absolute index after its last.
     * @param token  the token.
     * @return true if listed.
     */
    public static boolean listContains(
        final ByteBuffer buffer, final int start, final int end, final CharSequence token)
    {
        return listed(buffer, start, end, token, null) != 0;
    }

    /**
     * Which of several tokens a comma-separated list (a field value) holds, in one pass, ignoring case and
     * optional whitespace.
     *
     * @param buffer the bytes.
     * @param start  absolute index of the list's first byte.
     * @param end    absolute index after its last.
     * @param tokens the tokens, at most 32.
     * @return bit {@code k} set when {@code tokens[k]} is listed.
     */
    public static int listedTokens(
        final ByteBuffer buffer, final int start, final int end, final CharSequence[] tokens)
    {
        return listed(buffer, start, end, null, tokens);
    }

    /** Either one token (1 when listed, at its first) or several (a bit each); one loop for both. */
    private static int listed(
        final ByteBuffer buffer, final int start, final int end, final CharSequence token,
        final CharSequence[] tokens)
    {
        int found = 0;
        if (tokens != null)
        {
            // Most lists hold one token and nothing else ("keep-alive"): compare the whole, no splitting.
            for (int k = 0; k < tokens.length; k++)
            {
                if (equalsIgnoreCase(buffer, start, end, tokens[k]))
                {
                    found |= 1 << k;
                }
            }
            if (found != 0)
            {
                return found;
            }
        }
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
            if (last > i)
            {
                if (token != null)
                {
                    if (equalsIgnoreCase(buffer, i, last, token))
                    {
                        return 1;
                    }
                }
                else
                {
                    for (int k = 0; k < tokens.length; k++)
                    {
                        if (equalsIgnoreCase(buffer, i, last, tokens[k]))
                        {
                            found |= 1 << k;
                        }
                    }
                }
            }
            i = e + 1;
        }
        return found;
    }

    /**
     * Writes text as one byte per char ({@code ?} above 255).
     *
     * @param out  receives the bytes at its position.
     * @param text the text.
     */
    public static void put(final ByteBuffer out, final CharSequence text)
    {
        put(out, text, 0, text.length());
    }

    /**
     * Writes characters {@code from} to {@code to} of a text, as {@link #put(ByteBuffer, CharSequence)} does.
     *
     * @param out  receives the bytes at its position.
     * @param text the text.
     * @param from index of the first char.
     * @param to   index after the last char.
     */
    public static void put(final ByteBuffer out, final CharSequence text, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final char c = text.charAt(i);
            out.put(c < 256 ? (byte)c : (byte)'?');
        }
    }

    /**
     * Writes a non-negative decimal number.
     *
     * @param out   receives the digits at its position.
     * @param value the number.
     */
    public static void putDecimal(final ByteBuffer out, final long value)
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

    /**
     * Writes a number in lower-case hexadecimal.
     *
     * @param out   receives the digits at its position.
     * @param value the number, read as unsigned.
     */
    public static void putHex(final ByteBuffer out, final long value)
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
