package io.celer.http.internal;

import java.nio.ByteBuffer;

/**
 * Parses a header section (RFC 9112, 5), of a request, a response or a trailer section, into a table of name
 * and value offsets, strictly: CRLF line ends, token names with no space before the colon, no control chars in
 * values, obsolete folding only where the caller allows it. Also reads a Content-Length value, which both sides
 * check the same way.
 */
public final class HeaderFieldParser
{
    /** A field line not ended by CRLF. */
    public static final int LINE_END = -1;
    /** An obsolete fold where none is allowed, or before any field. */
    public static final int FOLD = -2;
    /** No name, a space before the colon, or a char a name may not hold. */
    public static final int NAME = -3;
    /** More fields than the table holds. */
    public static final int TOO_MANY = -4;
    /** A char a value may not hold. */
    public static final int VALUE_CHAR = -5;

    private HeaderFieldParser()
    {
    }

    /**
     * Scans field lines, of a request or a response, into a table of name and value offsets.
     *
     * @param buffer       the bytes.
     * @param base         absolute index the offsets are relative to.
     * @param from         absolute index of the first field line.
     * @param sectionEnd   absolute index of the empty line that ends the section.
     * @param allowObsFold whether to replace obsolete line folding by spaces (RFC 9112, 5.2) instead of rejecting it.
     * @param into         receives the offsets, relative to base, and their count once all parse.
     * @return the number of fields, or {@link #LINE_END}, {@link #FOLD}, {@link #NAME}, {@link #TOO_MANY} or
     *         {@link #VALUE_CHAR} for what is wrong.
     */
    public static int scan(
        final ByteBuffer buffer, final int base, final int from, final int sectionEnd, final boolean allowObsFold,
        final HeadFields into)
    {
        // Every line before the section's end has its line feed (the caller found them), the last at most just
        // before the empty line's. One pass per line: the name up to its colon, then the value up to the first
        // char a value may not hold, which in a well-formed line is the CR of its CRLF.
        final int limit = Math.min(sectionEnd + 2, buffer.limit());
        int count = 0;
        int line = from;
        while (line < sectionEnd)
        {
            final byte first = buffer.get(line);
            if (first == ' ' || first == '\t')
            {
                if (!allowObsFold || count == 0)
                {
                    return failure(buffer, line, limit, FOLD);
                }
                final int stop = WordScan.fieldEnd(buffer, line, limit);
                if (!crlf(buffer, stop, limit))
                {
                    return failure(buffer, line, limit, VALUE_CHAR);
                }
                // Replace the fold (the previous CRLF) by spaces and extend the value.
                final int index = count - 1;
                buffer.put(line - 2, (byte)' ');
                buffer.put(line - 1, (byte)' ');
                final int foldEnd = lastNonSpace(buffer, line, stop);
                if (foldEnd > line)
                {
                    if (into.valueStart[index] == into.valueEnd[index])
                    {
                        into.valueStart[index] = firstNonSpace(buffer, line, foldEnd) - base;
                    }
                    into.valueEnd[index] = foldEnd - base;
                }
                line = stop + 2;
                continue;
            }
            final int next = fieldLine(buffer, base, line, limit, into, count);
            if (next < 0)
            {
                return failure(buffer, line, limit, next);
            }
            count++;
            line = next;
        }
        into.count = count;
        return count;
    }

    /**
     * Scans the field lines of a head read whole, up to the empty line that ends them, without a scan before it
     * for where the head ends: for the common head that arrives in one read, one pass over its bytes instead of
     * two. Strict and silent: anything but well-formed fields (a fold, a bare LF, a bad char, more fields than
     * the table holds, the bytes running out) returns -1, and the caller parses the head the usual way, which
     * says what is wrong.
     *
     * @param buffer the bytes.
     * @param base   absolute index the offsets are relative to.
     * @param from   absolute index of the first field line.
     * @param to     absolute index after the last byte read, at most the buffer's limit.
     * @param into   receives the offsets, relative to base, and their count on success.
     * @return the absolute index after the empty line's LF, or -1.
     */
    public static int scanWhole(
        final ByteBuffer buffer, final int base, final int from, final int to, final HeadFields into)
    {
        int count = 0;
        int line = from;
        while (line + 1 < to)
        {
            if (buffer.get(line) == '\r')
            {
                if (buffer.get(line + 1) != '\n')
                {
                    return -1;
                }
                into.count = count;
                return line + 2;
            }
            final int next = fieldLine(buffer, base, line, to, into, count);
            if (next < 0)
            {
                return -1; // a fold, a bare LF, a bad name or char, too many fields
            }
            count++;
            line = next;
        }
        return -1;
    }

    /**
     * Parses one field line into the table's next slot: a token name, its colon, and the value up to the first
     * char a value may not hold, which must be the CR of the line's CRLF.
     *
     * @return the index after the line's CRLF, or {@link #NAME}, {@link #TOO_MANY} or {@link #VALUE_CHAR}.
     */
    private static int fieldLine(final ByteBuffer buffer, final int base, final int line, final int limit,
        final HeadFields into, final int count)
    {
        int colon = line;
        while (colon < limit && Ascii.isTchar(buffer.get(colon)))
        {
            colon++;
        }
        if (colon == line || colon == limit || buffer.get(colon) != ':')
        {
            return NAME; // no name, a space before the colon, or a bad name char
        }
        if (count == into.nameStart.length && !into.grow())
        {
            return TOO_MANY;
        }
        final int vs = firstNonSpace(buffer, colon + 1, limit);
        final int stop = WordScan.fieldEnd(buffer, vs, limit);
        if (!crlf(buffer, stop, limit))
        {
            return VALUE_CHAR;
        }
        into.nameStart[count] = line - base;
        into.nameEnd[count] = colon - base;
        into.valueStart[count] = vs - base;
        into.valueEnd[count] = lastNonSpace(buffer, vs, stop) - base;
        return stop + 2;
    }

    /** Whether a CRLF is at the index. */
    private static boolean crlf(final ByteBuffer buffer, final int at, final int limit)
    {
        return at + 1 < limit && buffer.get(at) == '\r' && buffer.get(at + 1) == '\n';
    }

    /**
     * What is wrong with a line: a line that does not end in CRLF is reported as that whatever else it holds,
     * as a parser that first split the lines would; otherwise what the caller found.
     */
    private static int failure(final ByteBuffer buffer, final int line, final int limit, final int found)
    {
        final int lf = WordScan.lineFeed(buffer, line, limit);
        return lf <= line || buffer.get(lf - 1) != '\r' ? LINE_END : found;
    }

    /**
     * Reads a Content-Length value: digits, or a list of the same digits.
     *
     * @param buffer the bytes.
     * @param from   absolute index of the value.
     * @param to     absolute index after it.
     * @return the length, or -1 for anything else or on overflow.
     */
    public static long contentLength(final ByteBuffer buffer, final int from, final int to)
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
            final int ts = firstNonSpace(buffer, i, e);
            final int te = lastNonSpace(buffer, ts, e);
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

    /**
     * Skips leading whitespace.
     *
     * @param buffer the bytes.
     * @param from   absolute index to start at.
     * @param end    absolute index to stop at.
     * @return the index of the first byte from {@code from} that is not SP or HTAB, or {@code end}.
     */
    public static int firstNonSpace(final ByteBuffer buffer, final int from, final int end)
    {
        int i = from;
        while (i < end && (buffer.get(i) == ' ' || buffer.get(i) == '\t'))
        {
            i++;
        }
        return i;
    }

    /**
     * Skips trailing whitespace.
     *
     * @param buffer the bytes.
     * @param from   absolute index to stop at.
     * @param end    absolute index after the last byte to look at.
     * @return the index after the last byte before {@code end} that is not SP or HTAB, or {@code from}.
     */
    public static int lastNonSpace(final ByteBuffer buffer, final int from, final int end)
    {
        int i = end;
        while (i > from && (buffer.get(i - 1) == ' ' || buffer.get(i - 1) == '\t'))
        {
            i--;
        }
        return i;
    }
}
