package io.celer.websocket.deflate;

/**
 * Walks a Sec-WebSocket-Extensions value (RFC 6455 section 9.1): extensions separated by commas, each a name
 * followed by {@code ;}-separated parameters, each a name with an optional {@code =} value, token or quoted.
 * Positions only: nothing is copied.
 */
final class ExtensionTokens
{
    /** What {@link #next()} found. */
    static final int END = 0;
    static final int EXTENSION = 1;
    static final int PARAMETER = 2;
    static final int INVALID = 3;

    private CharSequence text;
    private int at;
    private boolean inExtension;
    int nameStart;
    int nameEnd;
    int valueStart;
    int valueEnd;

    ExtensionTokens reset(final CharSequence header)
    {
        text = header;
        at = 0;
        inExtension = false;
        return this;
    }

    /**
     * Moves to the next extension or parameter.
     *
     * @return {@link #EXTENSION} (name set), {@link #PARAMETER} (name and maybe value set; valueStart -1 when
     *         none), {@link #END} or {@link #INVALID}.
     */
    int next()
    {
        skipSpace();
        if (at >= text.length())
        {
            return END;
        }
        final char separator = text.charAt(at);
        if (inExtension && separator == ';')
        {
            at++;
            skipSpace();
            if (!token())
            {
                return INVALID;
            }
            valueStart = -1;
            valueEnd = -1;
            skipSpace();
            if (at < text.length() && text.charAt(at) == '=')
            {
                at++;
                skipSpace();
                if (!value())
                {
                    return INVALID;
                }
            }
            return PARAMETER;
        }
        if (inExtension)
        {
            if (separator != ',')
            {
                return INVALID;
            }
            at++;
            skipSpace();
        }
        if (!token())
        {
            return INVALID;
        }
        inExtension = true;
        return EXTENSION;
    }

    /**
     * Skips the rest of the current extension.
     */
    void skipExtension()
    {
        boolean quoted = false;
        while (at < text.length())
        {
            final char c = text.charAt(at);
            if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted)
            {
                return;
            }
            at++;
        }
    }

    boolean nameIs(final String name)
    {
        return regionIs(nameStart, nameEnd, name);
    }

    boolean regionIs(final int start, final int end, final String expected)
    {
        if (end - start != expected.length())
        {
            return false;
        }
        for (int i = 0; i < expected.length(); i++)
        {
            if (Character.toLowerCase(text.charAt(start + i)) != expected.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The value as a window size: 8 to 15, decimal without leading zeros.
     *
     * @return the bits, or -1 when the value is not one.
     */
    int windowBits()
    {
        if (valueStart < 0)
        {
            return -1;
        }
        int value = 0;
        for (int i = valueStart; i < valueEnd; i++)
        {
            final char c = text.charAt(i);
            if (c < '0' || c > '9' || i == valueStart && c == '0' || value > 15)
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return valueEnd > valueStart && value >= 8 && value <= 15 ? value : -1;
    }

    private boolean token()
    {
        nameStart = at;
        skipTokenChars();
        nameEnd = at;
        return nameEnd > nameStart;
    }

    private boolean value()
    {
        if (at < text.length() && text.charAt(at) == '"')
        {
            at++;
            valueStart = at;
            while (at < text.length() && text.charAt(at) != '"')
            {
                if (!isTokenChar(text.charAt(at)))
                {
                    return false; // RFC 7692: a quoted value must still be a token
                }
                at++;
            }
            if (at >= text.length())
            {
                return false;
            }
            valueEnd = at++;
            return valueEnd > valueStart;
        }
        valueStart = at;
        skipTokenChars();
        valueEnd = at;
        return valueEnd > valueStart;
    }

    private void skipTokenChars()
    {
        while (at < text.length() && isTokenChar(text.charAt(at)))
        {
            at++;
        }
    }

    private void skipSpace()
    {
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t'))
        {
            at++;
        }
    }

    private static boolean isTokenChar(final char c)
    {
        return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }
}
