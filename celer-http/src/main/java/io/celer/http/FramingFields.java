package io.celer.http;

import java.nio.ByteBuffer;

/**
 * Reads the fields that decide where a request ends and what follows it (RFC 9112, 6 and 9.3), and rejects
 * every combination a front end could read differently: both lengths, several lengths, a signed or spaced
 * length, codings that do not end in chunked. Chunked is the only transfer coding the server decodes: a body
 * under any other (gzip, deflate...) is answered 501 rather than handed on still coded.
 */
final class FramingFields
{
    private FramingFields()
    {
    }

    static int apply(final ByteBuffer buffer, final int start, final HttpRequest request)
    {
        boolean transferEncoding = false;
        boolean lastChunked = false;
        int chunkedCount = 0;
        boolean otherCoding = false;
        boolean close = false;
        boolean keepAliveToken = false;
        boolean upgradeToken = false;
        boolean upgradeField = false;
        for (int h = 0; h < request.headerCount; h++)
        {
            final int ns = start + request.nameStart[h];
            final int ne = start + request.nameEnd[h];
            final int vs = start + request.valueStart[h];
            final int ve = start + request.valueEnd[h];
            if (Ascii.equalsIgnoreCase(buffer, ns, ne, "content-length"))
            {
                final long length = contentLength(buffer, vs, ve);
                if (length < 0 || (request.contentLength >= 0 && request.contentLength != length))
                {
                    return HttpStatus.BAD_REQUEST;
                }
                request.contentLength = length;
            }
            else if (Ascii.equalsIgnoreCase(buffer, ns, ne, "transfer-encoding"))
            {
                transferEncoding = true;
                int i = vs;
                while (i <= ve)
                {
                    int e = i;
                    while (e < ve && buffer.get(e) != ',')
                    {
                        e++;
                    }
                    final int ts = trimStart(buffer, i, e);
                    final int te = trimEnd(buffer, ts, e);
                    if (ts < te)
                    {
                        if (Ascii.equalsIgnoreCase(buffer, ts, te, "chunked"))
                        {
                            chunkedCount++;
                            lastChunked = true;
                        }
                        else
                        {
                            lastChunked = false;
                            otherCoding = true;
                        }
                    }
                    else if (e < ve || i == vs)
                    {
                        return HttpStatus.BAD_REQUEST; // an empty list element or an empty value
                    }
                    i = e + 1;
                }
            }
            else if (Ascii.equalsIgnoreCase(buffer, ns, ne, "connection"))
            {
                close |= Ascii.listContains(buffer, vs, ve, "close");
                keepAliveToken |= Ascii.listContains(buffer, vs, ve, "keep-alive");
                upgradeToken |= Ascii.listContains(buffer, vs, ve, "upgrade");
            }
            else if (Ascii.equalsIgnoreCase(buffer, ns, ne, "expect"))
            {
                if (!Ascii.equalsIgnoreCase(buffer, vs, ve, "100-continue"))
                {
                    return HttpStatus.EXPECTATION_FAILED;
                }
                request.expectContinue = request.minorVersion == 1; // HTTP/1.0 clients never wait for it
            }
            else if (Ascii.equalsIgnoreCase(buffer, ns, ne, "upgrade"))
            {
                upgradeField = true;
            }
        }
        if (transferEncoding)
        {
            // A length that cannot be read is a 400 whatever the codings (RFC 9112, 6.3); only a well-framed
            // body under a coding this server does not decode is a 501 (6.1).
            if (request.contentLength >= 0 || request.minorVersion == 0 || chunkedCount != 1 || !lastChunked)
            {
                return HttpStatus.BAD_REQUEST;
            }
            if (otherCoding)
            {
                return HttpStatus.NOT_IMPLEMENTED;
            }
            request.chunked = true;
        }
        request.keepAlive = !close && (request.minorVersion == 1 || keepAliveToken);
        request.upgrade = upgradeToken && upgradeField && request.minorVersion == 1;
        return 0;
    }

    /** A Content-Length value: digits, or a list of the same digits; -1 otherwise or on overflow. */
    static long contentLength(final ByteBuffer buffer, final int from, final int to)
    {
        long result = -1;
        int i = from;
        while (i <= to)
        {
            int e = i;
            while (e < to && buffer.get(e) != ',')
            {
                e++;
            }
            final int ts = trimStart(buffer, i, e);
            final int te = trimEnd(buffer, ts, e);
            final long value = Ascii.decimal(buffer, ts, te);
            if (value < 0 || (result >= 0 && result != value))
            {
                return -1;
            }
            result = value;
            i = e + 1;
        }
        return result;
    }

    private static int trimStart(final ByteBuffer buffer, final int from, final int to)
    {
        int i = from;
        while (i < to && (buffer.get(i) == ' ' || buffer.get(i) == '\t'))
        {
            i++;
        }
        return i;
    }

    private static int trimEnd(final ByteBuffer buffer, final int from, final int to)
    {
        int i = to;
        while (i > from && (buffer.get(i - 1) == ' ' || buffer.get(i - 1) == '\t'))
        {
            i--;
        }
        return i;
    }
}
