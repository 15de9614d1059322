package io.celer.bench.http.tfb.peer;

/**
 * Writes the JSON benchmark's object, {@code {"message":"..."}}, from a message into a reused byte array, UTF-8
 * with the escapes JSON requires, without allocating: what a JSON library does per request, minus its garbage.
 *
 * <p>No library serves here: the JSON libraries on Maven Central (Jackson, DSL-JSON, jsoniter) allocate a
 * generator, a buffer or a result per call.
 */
public final class JsonWriter
{
    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};
    private static final byte[] OPEN = "{\"message\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Most bytes one char of a string can take: {@code \u001F}. */
    private static final int MAX_PER_CHAR = 6;

    private final byte[] bytes;
    private int length;

    /**
     * A writer for messages up to a size.
     *
     * @param capacity the most bytes one object may take.
     */
    public JsonWriter(final int capacity)
    {
        this.bytes = new byte[capacity];
    }

    /**
     * Writes {@code {"message":"<message>"}} from the start of the array.
     *
     * @param message the message's text.
     * @return this.
     * @throws IllegalArgumentException if the object would not fit.
     */
    public JsonWriter writeMessage(final CharSequence message)
    {
        System.arraycopy(OPEN, 0, bytes, 0, OPEN.length);
        int at = string(message, OPEN.length);
        bytes[at++] = '"';
        bytes[at++] = '}';
        length = at;
        return this;
    }

    /** @return the array the last object was written into, from index 0; reused by the next write. */
    public byte[] bytes()
    {
        return bytes;
    }

    /** @return the last object's length in bytes. */
    public int length()
    {
        return length;
    }

    private int string(final CharSequence text, final int start)
    {
        int at = start;
        final int n = text.length();
        for (int i = 0; i < n; i++)
        {
            if (at + MAX_PER_CHAR + 2 > bytes.length)
            {
                throw new IllegalArgumentException("a message of " + n + " chars may not fit in " + bytes.length
                    + " bytes");
            }
            final char c = text.charAt(i);
            if (c == '"' || c == '\\')
            {
                bytes[at++] = '\\';
                bytes[at++] = (byte)c;
            }
            else if (c < 0x20)
            {
                at = control(c, at);
            }
            else if (c < 0x80)
            {
                bytes[at++] = (byte)c;
            }
            else if (c < 0x800)
            {
                bytes[at++] = (byte)(0xC0 | c >> 6);
                bytes[at++] = (byte)(0x80 | c & 0x3F);
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1)))
            {
                final int code = Character.toCodePoint(c, text.charAt(++i));
                bytes[at++] = (byte)(0xF0 | code >> 18);
                bytes[at++] = (byte)(0x80 | code >> 12 & 0x3F);
                bytes[at++] = (byte)(0x80 | code >> 6 & 0x3F);
                bytes[at++] = (byte)(0x80 | code & 0x3F);
            }
            else if (Character.isSurrogate(c))
            {
                // A lone surrogate has no UTF-8 form: the replacement character U+FFFD stands for it.
                bytes[at++] = (byte)0xEF;
                bytes[at++] = (byte)0xBF;
                bytes[at++] = (byte)0xBD;
            }
            else
            {
                bytes[at++] = (byte)(0xE0 | c >> 12);
                bytes[at++] = (byte)(0x80 | c >> 6 & 0x3F);
                bytes[at++] = (byte)(0x80 | c & 0x3F);
            }
        }
        return at;
    }

    private int control(final char c, final int start)
    {
        int at = start;
        bytes[at++] = '\\';
        switch (c)
        {
            case '\n' -> bytes[at++] = 'n';
            case '\r' -> bytes[at++] = 'r';
            case '\t' -> bytes[at++] = 't';
            case '\b' -> bytes[at++] = 'b';
            case '\f' -> bytes[at++] = 'f';
            default ->
            {
                bytes[at++] = 'u';
                bytes[at++] = '0';
                bytes[at++] = '0';
                bytes[at++] = HEX[c >> 4];
                bytes[at++] = HEX[c & 0xF];
            }
        }
        return at;
    }
}
