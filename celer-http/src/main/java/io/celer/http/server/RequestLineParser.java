package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.http.HttpMethod;
import io.celer.http.HttpStatus;
import io.celer.http.internal.Ascii;

/**
 * Parses a request line (RFC 9112, 3): method, one space, target, one space, version, CRLF.
 */
final class RequestLineParser
{
    private RequestLineParser()
    {
    }

    /**
     * Fills the request's method, target, path, query and version.
     *
     * @param buffer  the bytes.
     * @param start   absolute index of the line.
     * @param lf      absolute index of its LF.
     * @param request receives the offsets, relative to start.
     * @return 0, or the status to reject the request with.
     */
    static int parse(final ByteBuffer buffer, final int start, final int lf, final HttpRequest request)
    {
        if (lf == start || buffer.get(lf - 1) != '\r')
        {
            return HttpStatus.BAD_REQUEST; // a bare LF ends the line
        }
        final int end = lf - 1;
        int i = start;
        while (i < end && Ascii.isTchar(buffer.get(i)))
        {
            i++;
        }
        if (i == start || i == end || buffer.get(i) != ' ')
        {
            return HttpStatus.BAD_REQUEST;
        }
        request.methodEnd = i - start;
        request.method = HttpMethod.of(buffer, start, i);
        final int targetStart = ++i;
        boolean encoded = false;
        int query = -1;
        while (i < end && buffer.get(i) != ' ')
        {
            final int b = buffer.get(i);
            if (!PercentCoding.isTargetChar(b))
            {
                return HttpStatus.BAD_REQUEST; // not a URI character (RFC 3986), or a fragment
            }
            if (b == '?' && query < 0)
            {
                query = i;
            }
            if (b == '%')
            {
                if (i + 2 >= end || Ascii.hexValue(buffer.get(i + 1)) < 0 ||
                    Ascii.hexValue(buffer.get(i + 2)) < 0)
                {
                    return HttpStatus.BAD_REQUEST;
                }
                encoded = true;
            }
            i++;
        }
        request.targetEncoded = encoded;
        if (i == targetStart || i == end)
        {
            return HttpStatus.BAD_REQUEST;
        }
        final int targetEnd = i;
        request.targetStart = targetStart - start;
        request.targetEnd = targetEnd - start;
        final int status =
            parseTarget(buffer, start, targetStart, targetEnd, query < 0 ? targetEnd : query, request);
        if (status != 0)
        {
            return status;
        }
        return parseVersion(buffer, start, i + 1, end, request);
    }

    private static int parseTarget(
        final ByteBuffer buffer, final int start, final int from, final int to, final int query,
        final HttpRequest request)
    {
        int pathStart;
        final byte first = buffer.get(from);
        if (first == '/')
        {
            pathStart = from;
        }
        else if (first == '*' && to == from + 1)
        {
            if (request.method != HttpMethod.OPTIONS)
            {
                return HttpStatus.BAD_REQUEST;
            }
            pathStart = from;
        }
        else
        {
            final int authority = schemeEnd(buffer, from, to);
            if (authority < 0)
            {
                return HttpStatus.BAD_REQUEST; // authority-form or garbage
            }
            pathStart = authority;
            while (pathStart < to && buffer.get(pathStart) != '/' && buffer.get(pathStart) != '?')
            {
                pathStart++;
            }
            if (pathStart == authority)
            {
                return HttpStatus.BAD_REQUEST; // no host
            }
        }
        // The target's first '?' (found while its chars were checked) ends the path: an authority stops at it too.
        final int q = query;
        request.pathStart = pathStart - start;
        request.pathEnd = q - start;
        if (q < to)
        {
            request.queryStart = q + 1 - start;
            request.queryEnd = to - start;
        }
        return 0;
    }

    /** The index after {@code http://} or {@code https://}, any case, or -1. */
    private static int schemeEnd(final ByteBuffer buffer, final int from, final int to)
    {
        if (to - from > 7 && Ascii.equalsIgnoreCase(buffer, from, from + 7, "http://"))
        {
            return from + 7;
        }
        if (to - from > 8 && Ascii.equalsIgnoreCase(buffer, from, from + 8, "https://"))
        {
            return from + 8;
        }
        return -1;
    }

    private static int parseVersion(
        final ByteBuffer buffer, final int start, final int from, final int to, final HttpRequest request)
    {
        if (to - from != 8 || !Ascii.equals(buffer, from, from + 5, "HTTP/") || buffer.get(from + 6) != '.')
        {
            return HttpStatus.BAD_REQUEST;
        }
        final int major = buffer.get(from + 5) - '0';
        final int minor = buffer.get(from + 7) - '0';
        if (major < 0 || major > 9 || minor < 0 || minor > 9)
        {
            return HttpStatus.BAD_REQUEST;
        }
        if (major != 1)
        {
            return HttpStatus.VERSION_NOT_SUPPORTED;
        }
        request.head.minorVersion(minor == 0 ? 0 : 1); // a later 1.x minor is answered as 1.1 (RFC 9110, 6.2)
        return 0;
    }
}
