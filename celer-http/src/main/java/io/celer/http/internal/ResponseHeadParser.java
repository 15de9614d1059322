package io.celer.http.internal;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.ReactorPool;

/**
 * Finds where a response's head ends through a {@link HeadScanner}, bounded by a size; then copies the
 * head into a buffer of its own (so that it outlives the read buffer while a large body streams) and parses the
 * status line (RFC 9112, 4), the fields (5) and the framing fields (6) strictly.
 */
public final class ResponseHeadParser
{
    /** More bytes are needed. */
    public static final int NEED_MORE = -1;
    /** The head is parsed. */
    public static final int DONE = 0;
    /** The head is malformed; see {@link #error()}. */
    public static final int ERROR = 1;

    /** The connection options a client acts on, read in one pass: bit 1 close, bit 2 keep-alive. */
    private static final CharSequence[] CONNECTION_OPTIONS = {"close", "keep-alive"};

    private final ReactorPool<ByteBuffer> heads;
    private final int maxHeadSize;
    private ByteBuffer head;

    private final HeadScanner scanner = new HeadScanner();
    private ResponseError error;
    private int status;
    private int reasonStart;
    private int reasonEnd;

    /**
     * A parser that copies each head into a buffer it borrows.
     *
     * @param heads       lends the buffers, each at least maxHeadSize large.
     * @param maxHeadSize the longest head, its empty line included.
     */
    public ResponseHeadParser(final ReactorPool<ByteBuffer> heads, final int maxHeadSize)
    {
        this.heads = heads;
        this.maxHeadSize = maxHeadSize;
        reset();
    }

    /**
     * Gives the head's buffer back; the response read last must no longer be used.
     */
    public void release()
    {
        if (head != null)
        {
            heads.give(head);
            head = null;
        }
    }

    /**
     * Forgets the head in progress, for the next.
     */
    public void reset()
    {
        scanner.reset();
    }

    /**
     * Whether some of a head has been seen and not yet all.
     *
     * @return true in the middle of a head.
     */
    public boolean inProgress()
    {
        return scanner.inProgress();
    }

    /**
     * Bytes of the head, with its empty line, once parsed.
     *
     * @return bytes from the response's start.
     */
    public int headLength()
    {
        return scanner.headLength();
    }

    /**
     * Why the last head was rejected.
     *
     * @return the reason.
     */
    public ResponseError error()
    {
        return error;
    }

    /**
     * The status code of the head parsed last.
     *
     * @return from 100 to 599.
     */
    public int status()
    {
        return status;
    }

    /**
     * Where the reason phrase of the head parsed last starts.
     *
     * @return the offset in the head's copy; as {@link #reasonEnd()} when there is none.
     */
    public int reasonStart()
    {
        return reasonStart;
    }

    /**
     * Where the reason phrase of the head parsed last ends.
     *
     * @return the offset in the head's copy after its last byte.
     */
    public int reasonEnd()
    {
        return reasonEnd;
    }

    /**
     * Scans newly read bytes for the end of the head, then parses it.
     *
     * @param buffer   the bytes.
     * @param start    absolute index of the response.
     * @param to       absolute index after the last byte read.
     * @param fields   receives the fields and the framing, over a copy of the head from index 0.
     * @return {@link #DONE}, {@link #NEED_MORE} or {@link #ERROR}.
     */
    public int parse(final ByteBuffer buffer, final int start, final int to, final HeadFields fields)
    {
        if (!scanner.scan(buffer, start, to))
        {
            return scanner.scanned() > maxHeadSize ? fail(ResponseError.HEAD_TOO_LARGE) : NEED_MORE;
        }
        final int headEnd = scanner.headLength();
        if (headEnd > maxHeadSize)
        {
            return fail(ResponseError.HEAD_TOO_LARGE);
        }
        if (head == null)
        {
            head = heads.take(); // borrowed until the response is done with: idle connections hold no head
        }
        head.clear();
        head.put(0, buffer, start, headEnd);
        fields.clear();
        fields.attach(head, 0);
        status = 0;
        reasonStart = reasonEnd = 0;
        return parseHead(fields);
    }

    private int parseHead(final HeadFields fields)
    {
        final int lf = scanner.firstLineFeed();
        final int headEnd = scanner.headLength();
        if (lf == 0 || head.get(lf - 1) != '\r')
        {
            return fail(ResponseError.STATUS_LINE_END);
        }
        final int lineEnd = lf - 1;
        if (lineEnd < 12 || !Ascii.equals(head, 0, 7, "HTTP/1.") || !digit(head.get(7)) || head.get(8) != ' ')
        {
            return fail(ResponseError.VERSION);
        }
        fields.minorVersion(Math.min(1, head.get(7) - '0'));
        if (!digit(head.get(9)) || !digit(head.get(10)) || !digit(head.get(11)))
        {
            return fail(ResponseError.STATUS_DIGITS);
        }
        final int code = (head.get(9) - '0') * 100 + (head.get(10) - '0') * 10 + head.get(11) - '0';
        if (code < 100 || code > 599)
        {
            return fail(ResponseError.STATUS_RANGE);
        }
        status = code;
        if (lineEnd > 12)
        {
            if (head.get(12) != ' ')
            {
                return fail(ResponseError.STATUS_SPACE);
            }
            for (int i = 13; i < lineEnd; i++)
            {
                final byte b = head.get(i);
                if (!Ascii.isFieldVchar(b) && b != ' ' && b != '\t')
                {
                    return fail(ResponseError.REASON_CHAR);
                }
            }
            reasonStart = 13;
            reasonEnd = lineEnd;
        }
        if (headEnd < 2 || head.get(headEnd - 2) != '\r' || headEnd == lf + 1)
        {
            return fail(ResponseError.HEAD_END);
        }
        final int parsed = parseFields(fields, lf + 1);
        return parsed != DONE ? parsed : framing(fields);
    }

    private int parseFields(final HeadFields fields, final int from)
    {
        // A user agent replaces an obsolete fold by spaces before reading the value (RFC 9112, 5.2).
        final int count = HeaderFieldParser.scan(head, 0, from, scanner.headLength() - 2, true, fields);
        switch (count)
        {
            case HeaderFieldParser.LINE_END:
                return fail(ResponseError.FIELD_LINE_END);
            case HeaderFieldParser.FOLD:
                return fail(ResponseError.FOLD_FIRST);
            case HeaderFieldParser.NAME:
                return fail(ResponseError.FIELD_NAME);
            case HeaderFieldParser.TOO_MANY:
                return fail(ResponseError.TOO_MANY_FIELDS);
            case HeaderFieldParser.VALUE_CHAR:
                return fail(ResponseError.FIELD_VALUE_CHAR);
            default:
                return DONE;
        }
    }

    /** The fields that delimit the body (RFC 9112, 6.3); anything a hop could read two ways is an error. */
    private int framing(final HeadFields fields)
    {
        final int minorVersion = fields.minorVersion();
        long contentLength = -1;
        boolean close = false;
        boolean keepAliveToken = false;
        int transferCodings = 0;
        for (int h = 0; h < fields.count; h++)
        {
            final int ns = fields.nameStart[h];
            final int ne = fields.nameEnd[h];
            final int vs = fields.valueStart[h];
            final int ve = fields.valueEnd[h];
            if (Ascii.equalsIgnoreCase(head, ns, ne, "content-length"))
            {
                final long length = HeaderFieldParser.contentLength(head, vs, ve);
                if (length < 0)
                {
                    return fail(ResponseError.BAD_LENGTH);
                }
                if (contentLength >= 0 && contentLength != length)
                {
                    return fail(ResponseError.CONFLICTING_LENGTHS);
                }
                contentLength = length;
            }
            else if (Ascii.equalsIgnoreCase(head, ns, ne, "transfer-encoding"))
            {
                // A client sends no TE field, so chunked alone is the only coding a server may use.
                if (!Ascii.equalsIgnoreCase(head, vs, ve, "chunked"))
                {
                    return fail(ResponseError.UNSUPPORTED_CODING);
                }
                transferCodings++;
            }
            else if (Ascii.equalsIgnoreCase(head, ns, ne, "connection"))
            {
                final int options = Ascii.listedTokens(head, vs, ve, CONNECTION_OPTIONS);
                close |= (options & 1) != 0;
                keepAliveToken |= (options & 2) != 0;
            }
        }
        if (transferCodings > 0)
        {
            if (transferCodings > 1)
            {
                return fail(ResponseError.CHUNKED_TWICE);
            }
            if (contentLength >= 0)
            {
                return fail(ResponseError.BOTH_LENGTHS);
            }
            if (minorVersion == 0)
            {
                return fail(ResponseError.CHUNKED_IN_HTTP_1_0);
            }
            fields.chunked(true);
        }
        fields.contentLength(contentLength);
        fields.keepAlive(!close && (minorVersion == 1 || keepAliveToken));
        return DONE;
    }

    private int fail(final ResponseError why)
    {
        error = why;
        return ERROR;
    }

    private static boolean digit(final int b)
    {
        return b >= '0' && b <= '9';
    }
}
