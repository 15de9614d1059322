package io.celer.http;

import java.nio.ByteBuffer;

/**
 * Finds where a request's head ends, across reads and without rescanning, enforcing the length limits as
 * bytes arrive; then parses the whole head at once into the request.
 */
final class RequestHeadParser
{
    /** More bytes are needed. */
    static final int NEED_MORE = -1;
    /** The head is parsed. */
    static final int DONE = 0;

    private final int maxRequestLine;
    private final int maxHeaderSection;
    private final boolean allowObsFold;

    private int scanned;
    private int firstLf;
    private int lineStart;
    private int headEnd;

    RequestHeadParser(final int maxRequestLine, final int maxHeaderSection, final boolean allowObsFold)
    {
        this.maxRequestLine = maxRequestLine;
        this.maxHeaderSection = maxHeaderSection;
        this.allowObsFold = allowObsFold;
        reset();
    }

    /**
     * Forgets the request in progress.
     */
    void reset()
    {
        scanned = 0;
        firstLf = -1;
        lineStart = 0;
        headEnd = -1;
    }

    /**
     * Whether some of a head has been seen and not yet all.
     *
     * @return true in the middle of a head.
     */
    boolean inProgress()
    {
        return scanned > 0 && headEnd < 0;
    }

    /**
     * Where the head ends, once parsed.
     *
     * @return bytes from the request's start.
     */
    int headLength()
    {
        return headEnd;
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
        int i = start + scanned;
        for (; i < to; i++)
        {
            if (buffer.get(i) != '\n')
            {
                continue;
            }
            final int at = i - start;
            if (firstLf < 0)
            {
                if (at > maxRequestLine)
                {
                    return HttpStatus.URI_TOO_LONG;
                }
                firstLf = at;
                lineStart = at + 1;
                continue;
            }
            final int lineLength = at - lineStart;
            if (lineLength == 0 || (lineLength == 1 && buffer.get(i - 1) == '\r'))
            {
                headEnd = at + 1;
                break;
            }
            lineStart = at + 1;
        }
        scanned = i - start;
        if (firstLf < 0)
        {
            return scanned > maxRequestLine ? HttpStatus.URI_TOO_LONG : NEED_MORE;
        }
        if (scanned - firstLf - 1 > maxHeaderSection)
        {
            return HttpStatus.HEADER_FIELDS_TOO_LARGE;
        }
        if (headEnd < 0)
        {
            return NEED_MORE;
        }
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
        return HeaderFieldParser.parse(buffer, start, start + firstLf + 1, start + headEnd, allowObsFold, request);
    }
}
