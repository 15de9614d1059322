package io.celer.websocket.internal;

import java.nio.ByteBuffer;


/**
 * The Sec-WebSocket-Key header's value: 16 random bytes in Base64, 24 characters ending in {@code ==}.
 */
public final class SecWebSocketKey
{
    /** The length of a key. */
    public static final int LENGTH = 24;

    private static final byte[] ALPHABET =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".getBytes(
            java.nio.charset.StandardCharsets.US_ASCII);

    private SecWebSocketKey()
    {
    }

    /**
     * Whether a key held as chars is 16 bytes in Base64.
     *
     * @param key the header's value, trimmed.
     * @return true when valid.
     */
    public static boolean isValid(final CharSequence key)
    {
        if (key.length() != LENGTH || key.charAt(22) != '=' || key.charAt(23) != '=')
        {
            return false;
        }
        for (int i = 0; i < 22; i++)
        {
            if (!isBase64(key.charAt(i)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a key held as bytes is 16 bytes in Base64.
     *
     * @param buffer the bytes.
     * @param from   first index.
     * @param to     index after the last.
     * @return true when valid.
     */
    public static boolean isValid(final ByteBuffer buffer, final int from, final int to)
    {
        if (to - from != LENGTH || buffer.get(from + 22) != '=' || buffer.get(from + 23) != '=')
        {
            return false;
        }
        for (int i = from; i < from + 22; i++)
        {
            if (!isBase64((char)(buffer.get(i) & 0xFF)))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean isBase64(final char c)
    {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/';
    }

    /**
     * Writes a fresh random key, for a client's request.
     *
     * @param random the source of the 16 bytes (a per-client generator, securely seeded).
     * @param out    receives {@link #LENGTH} ASCII bytes at its position, which moves past them.
     */
    public static void generate(final MaskKeys random, final ByteBuffer out)
    {
        final long high = random.nextLong();
        final long low = random.nextLong();
        // 128 bits as 21 groups of 6 and a last group of 2 (padded with 4 zero bits), then "==".
        for (int group = 0; group < 22; group++)
        {
            final int bit = group * 6;
            final int sextet;
            if (bit + 6 <= 64)
            {
                sextet = (int)(high >>> (58 - bit)) & 0x3F;
            }
            else if (bit < 64)
            {
                sextet = (int)((high << (bit - 58)) | (low >>> (122 - bit))) & 0x3F;
            }
            else if (bit + 6 <= 128)
            {
                sextet = (int)(low >>> (122 - bit)) & 0x3F;
            }
            else
            {
                sextet = (int)(low << 4) & 0x3F;
            }
            out.put(ALPHABET[sextet]);
        }
        out.put((byte)'=').put((byte)'=');
    }
}
