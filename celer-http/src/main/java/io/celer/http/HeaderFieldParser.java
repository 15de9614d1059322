package io.celer.http;

import java.nio.ByteBuffer;

/**
 * Parses a request's header section (RFC 9112, 5) and the fields that frame the message: Content-Length,
 * Transfer-Encoding, Host, Connection, Expect and Upgrade, strictly where a smuggling vector lies.
 */
final class HeaderFieldParser
{
    /** A field line not ended by CRLF. */
    static final int LINE_END = -1;
    /** An obsolete fold where none is allowed, or before any field. */
    static final int FOLD = -2;
    /** No name, a space before the colon, or a char a name may not hold. */
    static final int NAME = -3;
    /** More fields than the table holds. */
    static final int TOO_MANY = -4;
    /** A char a value may not hold. */
    static final int VALUE_CHAR = -5;

    private HeaderFieldParser()
    {
    }

    /**
     * Parses the fields between the request line and the empty line.
     *
     * @param buffer       the bytes.
     * @param start        absolute index of the request.
     * @param from         absolute index of the first field line.
     * @param headEnd      absolute index after the empty line's LF.
     * @param allowObsFold whether to replace obsolete line folding by spaces instead of rejecting it.
     * @param request      receives the fields, offsets relative to start.
     * @return 0, or the status to reject the request with.
     */
    static int parse(
        final ByteBuffer buffer, final int start, final int from, final int headEnd, final boolean allowObsFold,
        final HttpRequest request)
    {
        final int count = scan(buffer, start, from, headEnd - 2, allowObsFold,
            request.nameStart, request.nameEnd, request.valueStart, request.valueEnd);
        if (count < 0)
        {
            return count == TOO_MANY ? HttpStatus.HEADER_FIELDS_TOO_LARGE : HttpStatus.BAD_REQUEST;
        }
        request.headerCount = count;
        int hostCount = 0;
        for (int h = 0; h < count; h++)
        {
            if (Ascii.equalsIgnoreCase(buffer, start + request.nameStart[h], start + request.nameEnd[h], "host"))
            {
                hostCount++;
                request.hostIndex = h;
                for (int i = start + request.valueStart[h]; i < start + request.valueEnd[h]; i++)
                {
                    if (!Ascii.isHostChar(buffer.get(i)))
                    {
                        return HttpStatus.BAD_REQUEST; // RFC 9112, 3.2: an invalid Host value
                    }
                }
            }
        }
        if (hostCount > 1 || (hostCount == 0 && request.minorVersion == 1))
        {
            return HttpStatus.BAD_REQUEST;
        }
        return FramingFields.apply(buffer, start, request);
    }

    /**
     * Scans field lines, of a request or a response, into a table of name and value offsets.
     *
     * @param buffer       the bytes.
     * @param base         absolute index the offsets are relative to.
     * @param from         absolute index of the first field line.
     * @param sectionEnd   absolute index of the empty line that ends the section.
     * @param allowObsFold whether to replace obsolete line folding by spaces (RFC 9112, 5.2) instead of rejecting it.
     * @return the number of fields, or {@link #LINE_END}, {@link #FOLD}, {@link #NAME}, {@link #TOO_MANY} or
     *         {@link #VALUE_CHAR} for what is wrong.
     */
    static int scan(
        final ByteBuffer buffer, final int base, final int from, final int sectionEnd, final boolean allowObsFold,
        final int[] nameStart, final int[] nameEnd, final int[] valueStart, final int[] valueEnd)
    {
        int count = 0;
        int line = from;
        while (line < sectionEnd)
        {
            int lf = line;
            while (buffer.get(lf) != '\n')
            {
                lf++;
            }
            if (lf == line || buffer.get(lf - 1) != '\r')
            {
                return LINE_END;
            }
            final int end = lf - 1;
            final byte first = buffer.get(line);
            if (first == ' ' || first == '\t')
            {
                if (!allowObsFold || count == 0)
                {
                    return FOLD;
                }
                // Replace the fold (the previous CRLF) by spaces and extend the value.
                final int index = count - 1;
                buffer.put(line - 2, (byte)' ');
                buffer.put(line - 1, (byte)' ');
                final int foldEnd = valueEnd(buffer, line, end);
                if (foldEnd < 0)
                {
                    return VALUE_CHAR;
                }
                if (foldEnd > line)
                {
                    if (valueStart[index] == valueEnd[index])
                    {
                        valueStart[index] = firstNonSpace(buffer, line, foldEnd) - base;
                    }
                    valueEnd[index] = foldEnd - base;
                }
                line = lf + 1;
                continue;
            }
            int colon = line;
            while (colon < end && Ascii.isTchar(buffer.get(colon)))
            {
                colon++;
            }
            if (colon == line || colon == end || buffer.get(colon) != ':')
            {
                return NAME; // no name, a space before the colon, or a bad name char
            }
            if (count == nameStart.length)
            {
                return TOO_MANY;
            }
            final int vs = firstNonSpace(buffer, colon + 1, end);
            final int ve = valueEnd(buffer, vs, end);
            if (ve < 0)
            {
                return VALUE_CHAR;
            }
            nameStart[count] = line - base;
            nameEnd[count] = colon - base;
            valueStart[count] = vs - base;
            valueEnd[count] = ve - base;
            count++;
            line = lf + 1;
        }
        return count;
    }

    /** The first field whose name is this one, ignoring case, or -1: a table's offsets are relative to base. */
    static int indexOf(
        final ByteBuffer buffer, final int base, final int[] nameStart, final int[] nameEnd, final int count,
        final CharSequence name)
    {
        for (int i = 0; i < count; i++)
        {
            if (Ascii.equalsIgnoreCase(buffer, base + nameStart[i], base + nameEnd[i], name))
            {
                return i;
            }
        }
        return -1;
    }

    static int firstNonSpace(final ByteBuffer buffer, final int from, final int end)
    {
        int i = from;
        while (i < end && (buffer.get(i) == ' ' || buffer.get(i) == '\t'))
        {
            i++;
        }
        return i;
    }

    /**
     * Checks a value's chars and trims trailing whitespace.
     *
     * @return the index after the value's last char, or -1 for a char a field value may not hold (a CTL, a
     *         bare CR, NUL).
     */
    static int valueEnd(final ByteBuffer buffer, final int from, final int end)
    {
        int last = from;
        for (int i = from; i < end; i++)
        {
            final byte b = buffer.get(i);
            if (Ascii.isFieldVchar(b))
            {
                last = i + 1;
            }
            else if (b != ' ' && b != '\t')
            {
                return -1;
            }
        }
        return last;
    }
}
