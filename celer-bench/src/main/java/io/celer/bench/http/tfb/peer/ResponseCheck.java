package io.celer.bench.http.tfb.peer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads one HTTP/1.1 response of the TechEmpower tests from a buffer and checks it as the tests' rules ask: status
 * 200, {@code Server}, {@code Date} (29 characters), {@code Content-Type} as expected, {@code Content-Length} and
 * exactly the expected body. Garbage-free: absolute reads of the buffer, no text made unless a response is wrong.
 *
 * <p>A server answers a route with the same bytes but for the Date's value: a response equal to the last one
 * checked outside that value is taken after two vectorized compares ({@link ByteBuffer#mismatch}), so that the
 * driver spends its CPU on the load rather than on parsing; any other goes through the whole check.
 */
public final class ResponseCheck
{
    /** What {@link #check} returns when the buffer does not yet hold a whole response. */
    public static final int INCOMPLETE = 0;
    /** What {@link #check} returns for a wrong response; {@link #problem()} says why. */
    public static final int WRONG = -1;
    private static final int MAX_HEAD = 1024;
    private static final int DATE_LENGTH = "Sun, 06 Nov 1994 08:49:37 GMT".length();
    private static final byte[] STATUS = "HTTP/1.1 200 ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER = "server".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATE = "date".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_TYPE = "content-type".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(StandardCharsets.US_ASCII);

    private final byte[] body;
    private final byte[] contentType;
    private final ByteBuffer last;
    private int lastLength;
    private int dateFrom;
    private int dateTo;
    private String problem;

    /**
     * A check of one route's responses.
     *
     * @param body        the exact body expected.
     * @param contentType the expected Content-Type value, such as {@code text/plain}.
     */
    public ResponseCheck(final byte[] body, final String contentType)
    {
        this.body = body.clone();
        this.contentType = contentType.getBytes(StandardCharsets.US_ASCII);
        this.last = ByteBuffer.allocate(MAX_HEAD + 4 + body.length);
    }

    /**
     * Checks the response that starts at the buffer's position, without moving it.
     *
     * @param buffer the bytes read, from position to limit.
     * @return the response's length when whole and right, {@link #INCOMPLETE} when more bytes are needed, or
     *         {@link #WRONG}.
     */
    public int check(final ByteBuffer buffer)
    {
        if (sameAsLast(buffer))
        {
            return lastLength;
        }
        final int length = checkWhole(buffer);
        if (length > 0)
        {
            lastLength = length;
            last.clear();
            last.put(0, buffer, buffer.position(), length);
        }
        return length;
    }

    private boolean sameAsLast(final ByteBuffer buffer)
    {
        return lastLength > 0 && buffer.remaining() >= lastLength && same(buffer, 0, dateFrom)
            && same(buffer, dateTo, lastLength);
    }

    /** Whether the buffer's bytes from its position equal the last response's, between two offsets. */
    private boolean same(final ByteBuffer buffer, final int from, final int to)
    {
        final int position = buffer.position();
        final int limit = buffer.limit();
        buffer.limit(position + to).position(position + from);
        last.limit(to).position(from);
        final boolean same = buffer.mismatch(last) < 0;
        buffer.limit(limit).position(position);
        return same;
    }

    private int checkWhole(final ByteBuffer buffer)
    {
        final int start = buffer.position();
        final int limit = buffer.limit();
        final int headEnd = headEnd(buffer, start, Math.min(limit, start + MAX_HEAD));
        if (headEnd < 0)
        {
            return limit - start >= MAX_HEAD ? wrong(buffer, start, limit, "no end of head in " + MAX_HEAD + " bytes")
                : INCOMPLETE;
        }
        if (!startsWith(buffer, start, STATUS))
        {
            return wrong(buffer, start, headEnd, "not HTTP/1.1 200");
        }
        boolean server = false;
        boolean date = false;
        boolean type = false;
        long length = -1;
        int line = lineEnd(buffer, start, headEnd) + 2;
        while (line < headEnd)
        {
            final int end = lineEnd(buffer, line, headEnd);
            final int colon = indexOf(buffer, line, end, (byte)':');
            if (colon < 0)
            {
                return wrong(buffer, start, headEnd, "a field line without a colon");
            }
            int value = colon + 1;
            while (value < end && (buffer.get(value) == ' ' || buffer.get(value) == '\t'))
            {
                value++;
            }
            if (nameIs(buffer, line, colon, SERVER))
            {
                server = end > value;
            }
            else if (nameIs(buffer, line, colon, DATE))
            {
                date = end - value == DATE_LENGTH;
                dateFrom = value - start;
                dateTo = end - start;
            }
            else if (nameIs(buffer, line, colon, CONTENT_TYPE))
            {
                type = end - value == contentType.length && startsWith(buffer, value, contentType);
            }
            else if (nameIs(buffer, line, colon, CONTENT_LENGTH))
            {
                length = decimal(buffer, value, end);
            }
            else if (nameIs(buffer, line, colon, TRANSFER_ENCODING))
            {
                return wrong(buffer, start, headEnd, "a Transfer-Encoding instead of a Content-Length");
            }
            line = end + 2;
        }
        if (!server || !date || !type || length < 0)
        {
            return wrong(buffer, start, headEnd, "missing or wrong Server, Date, Content-Type or Content-Length");
        }
        if (length != body.length)
        {
            return wrong(buffer, start, headEnd, "Content-Length " + length + ", expected " + body.length);
        }
        final int bodyStart = headEnd + 4;
        if (limit - bodyStart < body.length)
        {
            return INCOMPLETE;
        }
        if (!startsWith(buffer, bodyStart, body))
        {
            return wrong(buffer, start, bodyStart + body.length, "a wrong body");
        }
        return bodyStart + body.length - start;
    }

    /**
     * Why the last wrong response was wrong.
     *
     * @return the reason and the response's start, or null when none was wrong.
     */
    public String problem()
    {
        return problem;
    }

    private int wrong(final ByteBuffer buffer, final int from, final int to, final String why)
    {
        final byte[] seen = new byte[Math.min(to, from + 300) - from];
        buffer.get(from, seen);
        problem = why + ": " + new String(seen, StandardCharsets.ISO_8859_1).replace("\r\n", "\\r\\n");
        return WRONG;
    }

    private static int headEnd(final ByteBuffer buffer, final int from, final int limit)
    {
        for (int i = from; i + 3 < limit; i++)
        {
            if (buffer.get(i) == '\r' && buffer.get(i + 1) == '\n' && buffer.get(i + 2) == '\r'
                && buffer.get(i + 3) == '\n')
            {
                return i;
            }
        }
        return -1;
    }

    private static int lineEnd(final ByteBuffer buffer, final int from, final int headEnd)
    {
        for (int i = from; i < headEnd; i++)
        {
            if (buffer.get(i) == '\r' && buffer.get(i + 1) == '\n')
            {
                return i;
            }
        }
        return headEnd;
    }

    private static int indexOf(final ByteBuffer buffer, final int from, final int to, final byte wanted)
    {
        for (int i = from; i < to; i++)
        {
            if (buffer.get(i) == wanted)
            {
                return i;
            }
        }
        return -1;
    }

    private static boolean nameIs(final ByteBuffer buffer, final int from, final int to, final byte[] lowerName)
    {
        if (to - from != lowerName.length)
        {
            return false;
        }
        for (int i = 0; i < lowerName.length; i++)
        {
            final int c = buffer.get(from + i);
            if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != lowerName[i])
            {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWith(final ByteBuffer buffer, final int from, final byte[] prefix)
    {
        if (buffer.limit() - from < prefix.length)
        {
            return false;
        }
        for (int i = 0; i < prefix.length; i++)
        {
            if (buffer.get(from + i) != prefix[i])
            {
                return false;
            }
        }
        return true;
    }

    private static long decimal(final ByteBuffer buffer, final int from, final int to)
    {
        if (from == to || to - from > 9)
        {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++)
        {
            final int digit = buffer.get(i) - '0';
            if (digit < 0 || digit > 9)
            {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
