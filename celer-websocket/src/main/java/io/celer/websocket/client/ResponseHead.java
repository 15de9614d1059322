package io.celer.websocket.client;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A strict parser of an HTTP/1.1 response head (RFC 9112 section 4 and 5), just enough for a WebSocket
 * handshake's answer: the status line and the fields, with CRLF line ends, token names, no whitespace before
 * the colon, no obsolete line folding and no control characters in values. Once per connection, so it keeps
 * the fields as strings.
 */
final class ResponseHead
{
    /** The head is not complete yet. */
    static final int NEED_MORE = 0;
    /** The head was parsed. */
    static final int DONE = 1;
    /** The head is malformed or too large; {@link #error()} says why. */
    static final int INVALID = -1;

    private final int maxLength;
    private final List<String> names = new ArrayList<>();
    private final List<String> values = new ArrayList<>();
    private int status;
    private String error;

    ResponseHead(final int maxLength)
    {
        this.maxLength = maxLength;
    }

    /**
     * Parses a head at the buffer's position; on {@link #DONE} moves the position past it, else leaves it.
     *
     * @param buffer the bytes read.
     * @return {@link #NEED_MORE}, {@link #DONE} or {@link #INVALID}.
     */
    int parse(final ByteBuffer buffer)
    {
        final int start = buffer.position();
        final int end = headEnd(buffer, start, Math.min(buffer.limit(), start + maxLength));
        if (end < 0)
        {
            return buffer.remaining() >= maxLength ? fail("a response head longer than " + maxLength + " bytes") :
                NEED_MORE;
        }
        names.clear();
        values.clear();
        int line = start;
        int lineEnd = lineEnd(buffer, line, end);
        if (lineEnd < 0 || !statusLine(buffer, line, lineEnd))
        {
            return error == null ? fail("a malformed status line") : INVALID;
        }
        line = lineEnd + 2;
        while (line < end - 2)
        {
            lineEnd = lineEnd(buffer, line, end);
            if (lineEnd < 0 || !field(buffer, line, lineEnd))
            {
                return error == null ? fail("a malformed header field") : INVALID;
            }
            line = lineEnd + 2;
        }
        buffer.position(end);
        return DONE;
    }

    /** The index after the blank line that ends the head, or -1. */
    private static int headEnd(final ByteBuffer buffer, final int from, final int to)
    {
        for (int i = from; i + 4 <= to; i++)
        {
            if (buffer.get(i) == '\r' && buffer.get(i + 1) == '\n' && buffer.get(i + 2) == '\r' &&
                buffer.get(i + 3) == '\n')
            {
                return i + 4;
            }
        }
        return -1;
    }

    /** The index of the CR of the line's CRLF; -1 for a bare CR or LF (no line end but CRLF is allowed). */
    private static int lineEnd(final ByteBuffer buffer, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final byte b = buffer.get(i);
            if (b == '\r')
            {
                return i + 1 < to && buffer.get(i + 1) == '\n' ? i : -1;
            }
            if (b == '\n')
            {
                return -1;
            }
        }
        return -1;
    }

    private boolean statusLine(final ByteBuffer buffer, final int from, final int to)
    {
        final String prefix = "HTTP/1.1 ";
        if (to - from < prefix.length() + 4)
        {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++)
        {
            if (buffer.get(from + i) != prefix.charAt(i))
            {
                return false;
            }
        }
        int code = 0;
        for (int i = from + prefix.length(); i < from + prefix.length() + 3; i++)
        {
            final byte b = buffer.get(i);
            if (b < '0' || b > '9')
            {
                return false;
            }
            code = code * 10 + b - '0';
        }
        if (buffer.get(from + prefix.length() + 3) != ' ')
        {
            return false;
        }
        for (int i = from + prefix.length() + 4; i < to; i++)
        {
            if (!isFieldChar(buffer.get(i)))
            {
                return false;
            }
        }
        status = code;
        return true;
    }

    private boolean field(final ByteBuffer buffer, final int from, final int to)
    {
        int colon = from;
        while (colon < to && isTokenChar(buffer.get(colon)))
        {
            colon++;
        }
        if (colon == from || colon == to || buffer.get(colon) != ':')
        {
            // Covers obsolete folding (a line starting with whitespace) and whitespace before the colon.
            return false;
        }
        int valueStart = colon + 1;
        int valueEnd = to;
        while (valueStart < valueEnd && isWhitespace(buffer.get(valueStart)))
        {
            valueStart++;
        }
        while (valueEnd > valueStart && isWhitespace(buffer.get(valueEnd - 1)))
        {
            valueEnd--;
        }
        final StringBuilder name = new StringBuilder(colon - from);
        for (int i = from; i < colon; i++)
        {
            name.append((char)buffer.get(i));
        }
        final StringBuilder value = new StringBuilder(valueEnd - valueStart);
        for (int i = valueStart; i < valueEnd; i++)
        {
            final byte b = buffer.get(i);
            if (!isFieldChar(b))
            {
                return false;
            }
            value.append((char)(b & 0xFF));
        }
        names.add(name.toString());
        values.add(value.toString());
        return true;
    }

    private int fail(final String why)
    {
        error = why;
        return INVALID;
    }

    private static boolean isWhitespace(final byte b)
    {
        return b == ' ' || b == '\t';
    }

    /** VCHAR, obs-text, SP or HTAB: what a field value and a reason phrase may hold. */
    private static boolean isFieldChar(final byte b)
    {
        return b == '\t' || b == ' ' || (b & 0xFF) > 0x20 && b != 0x7F;
    }

    private static boolean isTokenChar(final byte b)
    {
        if (b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9')
        {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(b) >= 0;
    }

    /**
     * Why parsing failed.
     *
     * @return the reason, or null.
     */
    String error()
    {
        return error;
    }

    /**
     * The status code.
     *
     * @return 100 to 999.
     */
    int status()
    {
        return status;
    }

    /**
     * How many fields have this name.
     *
     * @param name the name, any case.
     * @return the count.
     */
    int count(final String name)
    {
        int count = 0;
        for (final String candidate : names)
        {
            count += candidate.equalsIgnoreCase(name) ? 1 : 0;
        }
        return count;
    }

    /**
     * The values of every field with this name, joined with commas as RFC 9110 section 5.3 allows.
     *
     * @param name the name, any case.
     * @return the joined values, or null when absent.
     */
    String value(final String name)
    {
        String joined = null;
        for (int i = 0; i < names.size(); i++)
        {
            if (names.get(i).equalsIgnoreCase(name))
            {
                joined = joined == null ? values.get(i) : joined + ", " + values.get(i);
            }
        }
        return joined;
    }
}
