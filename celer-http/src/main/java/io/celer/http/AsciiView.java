package io.celer.http;

import java.nio.ByteBuffer;

import io.celer.http.internal.Ascii;

/**
 * A reusable char view of bytes in a buffer (one char per byte), so that text in a request is read without
 * making a String; valid only as long as the bytes under it, and reset by the next lookup that returns it.
 */
public final class AsciiView implements CharSequence
{
    private ByteBuffer buffer;
    private int start;
    private int end;

    /**
     * An empty view, to point at bytes with {@link #wrap}.
     */
    public AsciiView()
    {
    }

    /**
     * Points the view at bytes of a buffer; the library reuses its views this way, lookup after lookup.
     *
     * @param buffer the bytes, read in place and not copied.
     * @param start  absolute index of the first.
     * @param end    absolute index after the last.
     * @return this.
     */
    public AsciiView wrap(final ByteBuffer buffer, final int start, final int end)
    {
        this.buffer = buffer;
        this.start = start;
        this.end = end;
        return this;
    }

    @Override
    public int length()
    {
        return end - start;
    }

    @Override
    public char charAt(final int index)
    {
        if (index < 0 || index >= end - start)
        {
            throw new IndexOutOfBoundsException(index);
        }
        return (char)(buffer.get(start + index) & 0xFF);
    }

    /**
     * A new view of a part; allocates, so keep it off the hot path.
     *
     * @param from first char.
     * @param to   after the last char.
     * @return the part.
     */
    @Override
    public CharSequence subSequence(final int from, final int to)
    {
        if (from < 0 || to > end - start || from > to)
        {
            throw new IndexOutOfBoundsException(from + ".." + to);
        }
        return new AsciiView().wrap(buffer, start + from, start + to);
    }

    /**
     * Whether the bytes spell the text exactly.
     *
     * @param text the text.
     * @return true if equal.
     */
    public boolean contentEquals(final CharSequence text)
    {
        return Ascii.equals(buffer, start, end, text);
    }

    /**
     * Whether the bytes spell the text, ignoring ASCII case.
     *
     * @param text the text.
     * @return true if equal.
     */
    public boolean equalsIgnoreCase(final CharSequence text)
    {
        return Ascii.equalsIgnoreCase(buffer, start, end, text);
    }

    /**
     * Whether the bytes, read as a comma-separated list, hold a token (ignoring case).
     *
     * @param token the token.
     * @return true if listed.
     */
    public boolean listContains(final CharSequence token)
    {
        return Ascii.listContains(buffer, start, end, token);
    }

    /**
     * The bytes as a non-negative decimal number.
     *
     * @return the number, or -1 when they are not one or it overflows.
     */
    public long parseLong()
    {
        return Ascii.decimal(buffer, start, end);
    }

    /**
     * Copies the bytes into a buffer.
     *
     * @param out receives them at its position.
     */
    public void copyTo(final ByteBuffer out)
    {
        for (int i = start; i < end; i++)
        {
            out.put(buffer.get(i));
        }
    }

    /**
     * The text as a String; allocates, for tests and logs.
     *
     * @return the text.
     */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(end - start);
        for (int i = start; i < end; i++)
        {
            sb.append((char)(buffer.get(i) & 0xFF));
        }
        return sb.toString();
    }
}
