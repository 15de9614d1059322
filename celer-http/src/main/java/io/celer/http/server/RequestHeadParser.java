package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.http.HttpStatus;
import io.celer.http.internal.Ascii;
import io.celer.http.internal.HeadFields;
import io.celer.http.internal.HeadScanner;
import io.celer.http.internal.HeaderFieldParser;
import io.celer.http.internal.WordScan;

/**
 * Parses a request's head: one that arrived whole in one pass over its bytes; any other (in parts, malformed,
 * past a limit) through a {@link HeadScanner}, which finds where it ends across reads, enforcing the length
 * limits as bytes arrive, before the whole head is parsed at once into the request.
 *
 * <p>Holds only the server's limits: how far a head in parts was scanned is the request's own, so that one
 * parser serves every connection of a server and an idle connection, which lends its request back, holds none.
 */
final class RequestHeadParser
{
    /** More bytes are needed. */
    static final int NEED_MORE = -1;
    /** The head is parsed. */
    static final int DONE = 0;
    /** Not a well-formed head read whole: the scanner takes it. */
    private static final int NOT_WHOLE = -2;
    private static final byte[] HOST = {'h', 'o', 's', 't'};

    private final int maxRequestLine;
    private final int maxHeaderSection;
    private final boolean allowObsFold;

    RequestHeadParser(final int maxRequestLine, final int maxHeaderSection, final boolean allowObsFold)
    {
        this.maxRequestLine = maxRequestLine;
        this.maxHeaderSection = maxHeaderSection;
        this.allowObsFold = allowObsFold;
    }

    /**
     * Forgets the head in progress.
     *
     * @param request the request the head is read into.
     */
    static void reset(final HttpRequest request)
    {
        request.scanner.reset();
    }

    /**
     * Whether some of a head has been seen and not yet all.
     *
     * @param request the request the head is read into.
     * @return true in the middle of a head.
     */
    static boolean inProgress(final HttpRequest request)
    {
        return request.scanner.inProgress();
    }

    /**
     * Where the head ends, once parsed.
     *
     * @param request the request the head was read into.
     * @return bytes from the request's start.
     */
    static int headLength(final HttpRequest request)
    {
        return request.scanner.headLength();
    }

    /**
     * Counts empty lines before a request, which a server ignores (RFC 9112, 2.2).
     *
     * @param buffer the bytes.
     * @param from   absolute index where a request may start.
     * @param to     absolute index after the last byte.
     * @return bytes of whole CRLF pairs to skip.
     */
    static int leadingEmptyLines(final ByteBuffer buffer, final int from, final int to)
    {
        int i = from;
        while (i + 1 < to && buffer.get(i) == '\r' && buffer.get(i + 1) == '\n')
        {
            i += 2;
        }
        return i - from;
    }

    /**
     * Scans newly read bytes for the end of the head, then parses it.
     *
     * @param buffer  the bytes.
     * @param start   absolute index of the request.
     * @param to      absolute index after the last byte read.
     * @param request receives the head.
     * @return {@link #DONE}, {@link #NEED_MORE} or a status to reject the request with.
     */
    int parse(final ByteBuffer buffer, final int start, final int to, final HttpRequest request)
    {
        final HeadScanner scanner = request.scanner;
        if (scanner.scanned() == 0)
        {
            final int status = parseWhole(buffer, start, to, request);
            if (status != NOT_WHOLE)
            {
                return status;
            }
        }
        final boolean found = scanner.scan(buffer, start, to);
        final int firstLf = scanner.firstLineFeed();
        if (firstLf < 0)
        {
            return scanner.scanned() > maxRequestLine ? HttpStatus.URI_TOO_LONG : NEED_MORE;
        }
        if (firstLf > maxRequestLine)
        {
            return HttpStatus.URI_TOO_LONG;
        }
        if (scanner.scanned() - firstLf - 1 > maxHeaderSection)
        {
            return HttpStatus.HEADER_FIELDS_TOO_LARGE;
        }
        if (!found)
        {
            return NEED_MORE;
        }
        final int headEnd = scanner.headLength();
        request.reset();
        request.headEnd = headEnd;
        final int lineStatus = RequestLineParser.parse(buffer, start, start + firstLf, request);
        if (lineStatus != 0)
        {
            return lineStatus;
        }
        if (headEnd == firstLf + 1)
        {
            // No empty line after the request line: the LF that ended the head ended the request line.
            return HttpStatus.BAD_REQUEST;
        }
        if (buffer.get(start + headEnd - 2) != '\r')
        {
            return HttpStatus.BAD_REQUEST; // the empty line is a bare LF
        }
        return fields(buffer, start, start + firstLf + 1, start + headEnd, request);
    }

    /**
     * Parses a head that arrived whole in one pass, with no scan for its end before: the common case, one pass
     * over its bytes instead of two. Anything this path does not take as well-formed and within the limits goes
     * to the scanner's path, which finds the same head or says what is wrong with it.
     *
     * @return {@link #DONE}, a status to reject the request with, or {@link #NOT_WHOLE}.
     */
    private int parseWhole(final ByteBuffer buffer, final int start, final int to, final HttpRequest request)
    {
        final int firstLf = WordScan.lineFeed(buffer, start, Math.min(to, start + maxRequestLine + 1));
        if (firstLf < 0)
        {
            return NOT_WHOLE;
        }
        request.reset();
        final int end = HeaderFieldParser.scanWhole(buffer, start, firstLf + 1, to, request.head);
        // Past the section's limit the scanner's path answers 431, as for a head that came in parts.
        if (end < 0 || end - firstLf - 2 > maxHeaderSection)
        {
            return NOT_WHOLE;
        }
        final int headEnd = end - start;
        request.scanner.found(firstLf - start, headEnd);
        request.headEnd = headEnd;
        final int lineStatus = RequestLineParser.parse(buffer, start, firstLf, request);
        return lineStatus != 0 ? lineStatus : hostAndFraming(buffer, start, request);
    }

    /**
     * Parses the fields between the request line and the empty line, then the Host rules (RFC 9112, 3.2) and the
     * framing fields.
     *
     * @return 0, or the status to reject the request with.
     */
    private int fields(final ByteBuffer buffer, final int start, final int from, final int headEnd,
        final HttpRequest request)
    {
        final int count = HeaderFieldParser.scan(buffer, start, from, headEnd - 2, allowObsFold, request.head);
        if (count < 0)
        {
            return count == HeaderFieldParser.TOO_MANY ? HttpStatus.HEADER_FIELDS_TOO_LARGE : HttpStatus.BAD_REQUEST;
        }
        return hostAndFraming(buffer, start, request);
    }

    /** The Host rules (RFC 9112, 3.2), then the framing fields, over a parsed table. */
    private static int hostAndFraming(final ByteBuffer buffer, final int start, final HttpRequest request)
    {
        final HeadFields head = request.head;
        final int count = head.count();
        int hostCount = 0;
        for (int h = 0; h < count; h++)
        {
            if (Ascii.equalsLowerCase(buffer, start + head.nameStart(h), start + head.nameEnd(h), HOST))
            {
                hostCount++;
                request.hostIndex = h;
                for (int i = start + head.valueStart(h); i < start + head.valueEnd(h); i++)
                {
                    if (!Ascii.isHostChar(buffer.get(i)))
                    {
                        return HttpStatus.BAD_REQUEST; // an invalid Host value
                    }
                }
            }
        }
        if (hostCount > 1 || (hostCount == 0 && head.minorVersion() == 1))
        {
            return HttpStatus.BAD_REQUEST;
        }
        return FramingFields.apply(buffer, start, request);
    }
}
