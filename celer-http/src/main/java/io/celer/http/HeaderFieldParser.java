package io.celer.http;

import java.nio.ByteBuffer;

/**
 * Parses a request's header section (RFC 9112, 5) and the fields that frame the message: Content-Length,
 * Transfer-Encoding, Host, Connection, Expect and Upgrade, strictly where a smuggling vector lies.
 */
final class HeaderFieldParser
{
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
        final int maxHeaders = request.nameStart.length;
        int hostCount = 0;
        int line = from;
        final int sectionEnd = headEnd - 2; // the empty line's CRLF
        while (line < sectionEnd)
        {
            int lf = line;
            while (buffer.get(lf) != '\n')
            {
                lf++;
            }
            if (lf == line || buffer.get(lf - 1) != '\r')
            {
                return HttpStatus.BAD_REQUEST;
            }
            final int end = lf - 1;
            final byte first = buffer.get(line);
            if (first == ' ' || first == '\t')
            {
                if (!allowObsFold || request.headerCount == 0)
                {
                    return HttpStatus.BAD_REQUEST;
                }
                // RFC 9112, 5.2: replace the fold (the previous CRLF) by spaces and extend the value.
                final int index = request.headerCount - 1;
                buffer.put(line - 2, (byte)' ');
                buffer.put(line - 1, (byte)' ');
                final int valueEnd = valueEnd(buffer, line, end);
                if (valueEnd < 0)
                {
                    return HttpStatus.BAD_REQUEST;
                }
                if (valueEnd > line)
                {
                    if (request.valueStart[index] == request.valueEnd[index])
                    {
                        request.valueStart[index] = firstNonSpace(buffer, line, valueEnd) - start;
                    }
                    request.valueEnd[index] = valueEnd - start;
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
                return HttpStatus.BAD_REQUEST; // no name, a space before the colon, or a bad name char
            }
            if (request.headerCount == maxHeaders)
            {
                return HttpStatus.HEADER_FIELDS_TOO_LARGE;
            }
            final int valueStart = firstNonSpace(buffer, colon + 1, end);
            final int valueEnd = valueEnd(buffer, valueStart, end);
            if (valueEnd < 0)
            {
                return HttpStatus.BAD_REQUEST;
            }
            final int index = request.headerCount++;
            request.nameStart[index] = line - start;
            request.nameEnd[index] = colon - start;
            request.valueStart[index] = valueStart - start;
            request.valueEnd[index] = valueEnd - start;
            if (Ascii.equalsIgnoreCase(buffer, line, colon, "host"))
            {
                hostCount++;
                request.hostIndex = index;
                for (int i = valueStart; i < valueEnd; i++)
                {
                    if (!Ascii.isHostChar(buffer.get(i)))
                    {
                        return HttpStatus.BAD_REQUEST; // RFC 9112, 3.2: an invalid Host value
                    }
                }
            }
            line = lf + 1;
        }
        if (hostCount > 1 || (hostCount == 0 && request.minorVersion == 1))
        {
            return HttpStatus.BAD_REQUEST;
        }
        return FramingFields.apply(buffer, start, request);
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
