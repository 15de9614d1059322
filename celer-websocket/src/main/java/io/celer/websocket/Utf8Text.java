package io.celer.websocket;

import java.nio.ByteBuffer;

/**
 * A text message as a reusable {@link CharSequence} over validated UTF-8 bytes: the bytes are there at once,
 * and are decoded to chars only when a char is first asked for, into an array kept for the next message.
 *
 * <p>Valid only during the callback that receives it. {@link #toString()} and {@link #subSequence} allocate.
 */
public final class Utf8Text implements CharSequence
{
    private static final char[] NO_CHARS = new char[0];
    private static final int FIRST_CHARS = 256;

    private ByteBuffer bytes;
    private int from;
    private int to;
    /** None until first decoded: a connection whose text is never read as chars keeps no array. */
    private char[] chars = NO_CHARS;
    private int length = -1;

    /**
     * An empty view; the library wraps each message's bytes in it.
     */
    public Utf8Text()
    {
    }

    /**
     * Points this at validated UTF-8.
     *
     * @param buffer the bytes.
     * @param from   first index.
     * @param to     index after the last.
     * @return this.
     */
    public Utf8Text wrap(final ByteBuffer buffer, final int from, final int to)
    {
        this.bytes = buffer;
        this.from = from;
        this.to = to;
        this.length = -1;
        return this;
    }

    /**
     * The UTF-8 bytes, between the returned buffer's position and limit (the message buffer itself, narrowed).
     *
     * @return the bytes.
     */
    public ByteBuffer bytes()
    {
        bytes.limit(to).position(from);
        return bytes;
    }

    /**
     * The number of UTF-8 bytes.
     *
     * @return bytes.
     */
    public int byteLength()
    {
        return to - from;
    }

    @Override
    public int length()
    {
        decode();
        return length;
    }

    @Override
    public char charAt(final int index)
    {
        decode();
        if (index < 0 || index >= length)
        {
            throw new IndexOutOfBoundsException(index);
        }
        return chars[index];
    }

    @Override
    public CharSequence subSequence(final int start, final int end)
    {
        decode();
        return new String(chars, start, end - start);
    }

    @Override
    public String toString()
    {
        decode();
        return new String(chars, 0, length);
    }

    /**
     * Whether it equals other text, char for char; decodes.
     *
     * @param text the other text.
     * @return true when equal.
     */
    public boolean contentEquals(final CharSequence text)
    {
        decode();
        if (text.length() != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (chars[i] != text.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private void decode()
    {
        if (length >= 0)
        {
            return;
        }
        if (chars.length < to - from)
        {
            // Never more chars than bytes; grows while warming up.
            chars = new char[Math.max(to - from, Math.max(FIRST_CHARS, chars.length * 2))];
        }
        int n = 0;
        int i = from;
        while (i < to)
        {
            final int b = bytes.get(i) & 0xFF;
            if (b < 0x80)
            {
                chars[n++] = (char)b;
                i++;
            }
            else if (b < 0xE0)
            {
                chars[n++] = (char)((b & 0x1F) << 6 | (bytes.get(i + 1) & 0x3F));
                i += 2;
            }
            else if (b < 0xF0)
            {
                chars[n++] = (char)((b & 0x0F) << 12 | (bytes.get(i + 1) & 0x3F) << 6 | (bytes.get(i + 2) & 0x3F));
                i += 3;
            }
            else
            {
                final int cp = (b & 0x07) << 18 | (bytes.get(i + 1) & 0x3F) << 12 | (bytes.get(i + 2) & 0x3F) << 6 |
                    (bytes.get(i + 3) & 0x3F);
                chars[n++] = Character.highSurrogate(cp);
                chars[n++] = Character.lowSurrogate(cp);
                i += 4;
            }
        }
        length = n;
    }
}
