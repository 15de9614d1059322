package io.celer.http;

import java.nio.ByteBuffer;

import io.celer.http.internal.Ascii;

/**
 * A header field checked and encoded once, for a field a handler sends with every message
 * ({@code Content-Type: text/plain}, say): adding it copies its bytes, with no per-char checks or encoding.
 * Immutable, so one constant may serve every reactor.
 */
public final class HeaderField
{
    private final String name;
    private final String value;
    private final byte[] line;

    private HeaderField(final String name, final String value)
    {
        this.name = name;
        this.value = value;
        final byte[] bytes = new byte[name.length() + value.length() + 4];
        final ByteBuffer out = ByteBuffer.wrap(bytes);
        Ascii.put(out, name);
        out.put((byte)':').put((byte)' ');
        Ascii.put(out, value);
        out.put((byte)'\r').put((byte)'\n');
        this.line = bytes;
    }

    /**
     * A field.
     *
     * @param name  a token.
     * @param value text without CR or LF; chars above 255 become {@code ?}.
     * @return the field, encoded.
     * @throws IllegalArgumentException if the name is not a token or the value holds CR or LF.
     */
    public static HeaderField of(final CharSequence name, final CharSequence value)
    {
        Ascii.checkFieldName(name);
        Ascii.checkFieldValue(value);
        return new HeaderField(name.toString(), value.toString());
    }

    /**
     * The field's name.
     *
     * @return the name as given.
     */
    public String name()
    {
        return name;
    }

    /**
     * The field's value.
     *
     * @return the value as given.
     */
    public String value()
    {
        return value;
    }

    /**
     * Bytes of the field line with its CRLF.
     *
     * @return the encoded length.
     */
    public int encodedLength()
    {
        return line.length;
    }

    /**
     * Writes the field line, with its CRLF, at the buffer's position.
     *
     * @param out receives the bytes.
     * @throws java.nio.BufferOverflowException if they do not fit; nothing is written then.
     */
    public void writeTo(final ByteBuffer out)
    {
        out.put(line);
    }

    @Override
    public String toString()
    {
        return name + ": " + value;
    }
}
