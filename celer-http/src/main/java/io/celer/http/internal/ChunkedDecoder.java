package io.celer.http.internal;

import java.nio.ByteBuffer;

import io.celer.http.HttpStatus;

/**
 * Decodes the chunked transfer coding (RFC 9112, 7.1) a byte at a time across reads: chunk sizes, extensions
 * (checked against the grammar, then ignored), data, and trailer fields (checked, then dropped or, for a caller
 * that asks, copied to a buffer of its own), each bounded.
 *
 * <p>The decoder walks the framing only; the caller moves or hands on the data bytes, so one decoder serves a
 * body held whole and a streamed one.
 */
public final class ChunkedDecoder
{
    private static final int SIZE_FIRST = 0;
    private static final int SIZE = 1;
    private static final int EXT_BWS = 2;
    private static final int EXT_NAME_START = 3;
    private static final int EXT_NAME = 4;
    private static final int EXT_AFTER_NAME = 5;
    private static final int EXT_VALUE_START = 6;
    private static final int EXT_TOKEN = 7;
    private static final int EXT_QUOTED = 8;
    private static final int EXT_ESCAPE = 9;
    private static final int EXT_AFTER_VALUE = 10;
    private static final int SIZE_LF = 11;
    private static final int DATA = 12;
    private static final int DATA_CR = 13;
    private static final int DATA_LF = 14;
    private static final int TRAILER_START = 15;
    private static final int TRAILER_NAME = 16;
    private static final int TRAILER_VALUE = 17;
    private static final int TRAILER_LF = 18;
    private static final int END_LF = 19;
    private static final int DONE = 20;

    private final int maxChunkLine;
    private final int maxTrailers;

    private int state;
    private long size;
    private int lineBytes;
    private int trailerBytes;
    private long dataRemaining;
    private int status;
    private boolean lastWasSpace;
    private ByteBuffer trailerCopy;
    private int trailerAt;

    /**
     * A decoder, ready after {@link #reset}.
     *
     * @param maxChunkLine the longest chunk line, extensions included.
     * @param maxTrailers  the most bytes of trailer fields.
     */
    public ChunkedDecoder(final int maxChunkLine, final int maxTrailers)
    {
        this.maxChunkLine = maxChunkLine;
        this.maxTrailers = maxTrailers;
    }

    /**
     * Starts a new body.
     */
    public void reset()
    {
        state = SIZE_FIRST;
        size = 0;
        lineBytes = 0;
        trailerBytes = 0;
        dataRemaining = 0;
        status = 0;
        lastWasSpace = false;
        trailerCopy = null;
    }

    /**
     * Copies the trailer section of the body being decoded, each field line and the empty line that ends it, to
     * a buffer; after {@link #reset}, which forgets it.
     *
     * @param into the buffer, written from {@code from} up to its capacity; a section that does not fit is a 431.
     * @param from absolute index of the first byte to write.
     */
    public void keepTrailers(final ByteBuffer into, final int from)
    {
        trailerCopy = into;
        trailerAt = from;
    }

    /**
     * Where the copied trailer section ends.
     *
     * @return the absolute index after its last byte.
     */
    public int trailersEnd()
    {
        return trailerAt;
    }

    /**
     * Whether the body broke its framing or a bound.
     *
     * @return the status to reject a request with (400 or 431), or 0.
     */
    public int status()
    {
        return status;
    }

    /**
     * Whether the last chunk and the trailers are through.
     *
     * @return true at the body's end.
     */
    public boolean isDone()
    {
        return state == DONE;
    }

    /**
     * Data bytes of the current chunk still to come; the caller takes them, then calls {@link #dataTaken}.
     *
     * @return bytes, 0 outside a chunk's data.
     */
    public long dataRemaining()
    {
        return state == DATA ? dataRemaining : 0;
    }

    /**
     * Tells that the caller took data bytes.
     *
     * @param count at most {@link #dataRemaining()}.
     */
    public void dataTaken(final int count)
    {
        dataRemaining -= count;
        if (dataRemaining == 0)
        {
            state = DATA_CR;
        }
    }

    /**
     * Reads framing bytes until data begins, the body ends, an error or the end of input.
     *
     * @param buffer the bytes.
     * @param from   absolute index of the first unread byte.
     * @param to     absolute index after the last byte read.
     * @return the absolute index of the first byte not read; check {@link #status()}, {@link #isDone()} and
     *         {@link #dataRemaining()}.
     */
    public int decode(final ByteBuffer buffer, final int from, final int to)
    {
        int i = from;
        while (i < to && state != DATA && state != DONE && status == 0)
        {
            step(buffer.get(i) & 0xFF);
            i++;
        }
        return i;
    }

    private void step(final int b)
    {
        if (state < DATA && ++lineBytes > maxChunkLine)
        {
            status = HttpStatus.BAD_REQUEST;
            return;
        }
        if (state >= TRAILER_START && state <= TRAILER_LF && ++trailerBytes > maxTrailers)
        {
            status = HttpStatus.HEADER_FIELDS_TOO_LARGE;
            return;
        }
        if (trailerCopy != null && state >= TRAILER_START)
        {
            if (trailerAt == trailerCopy.capacity())
            {
                status = HttpStatus.HEADER_FIELDS_TOO_LARGE;
                return;
            }
            trailerCopy.put(trailerAt++, (byte)b);
        }
        final boolean spaceBefore = lastWasSpace;
        lastWasSpace = b == ' ' || b == '\t';
        if (b == '\r' && spaceBefore && state < SIZE_LF)
        {
            fail(); // whitespace may only precede a ';' in a chunk line (RFC 9112, 7.1.1)
            return;
        }
        switch (state)
        {
            case SIZE_FIRST:
            case SIZE:
                final int digit = Ascii.hexValue(b);
                if (digit >= 0)
                {
                    if (size >= (1L << 56))
                    {
                        status = HttpStatus.BAD_REQUEST; // overflow
                        return;
                    }
                    size = (size << 4) | digit;
                    state = SIZE;
                }
                else if (state == SIZE)
                {
                    afterSize(b);
                }
                else
                {
                    status = HttpStatus.BAD_REQUEST; // no digit
                }
                break;
            case EXT_BWS:
            case EXT_AFTER_VALUE:
                afterSize(b);
                break;
            case EXT_NAME_START:
                if (b == ' ' || b == '\t')
                {
                    break;
                }
                state = Ascii.isTchar(b) ? EXT_NAME : fail();
                break;
            case EXT_NAME:
                if (!Ascii.isTchar(b))
                {
                    afterName(b);
                }
                break;
            case EXT_AFTER_NAME:
                afterName(b);
                break;
            case EXT_VALUE_START:
                if (b == '"')
                {
                    state = EXT_QUOTED;
                }
                else if (b != ' ' && b != '\t')
                {
                    state = Ascii.isTchar(b) ? EXT_TOKEN : fail();
                }
                break;
            case EXT_TOKEN:
                if (!Ascii.isTchar(b))
                {
                    afterSize(b);
                }
                break;
            case EXT_QUOTED:
                if (b == '"')
                {
                    state = EXT_AFTER_VALUE;
                }
                else if (b == '\\')
                {
                    state = EXT_ESCAPE;
                }
                else if (b != '\t' && (b < 0x20 || b == 0x7F))
                {
                    fail();
                }
                break;
            case EXT_ESCAPE:
                state = b == '\t' || (b >= 0x20 && b != 0x7F) ? EXT_QUOTED : fail();
                break;
            case SIZE_LF:
                if (b != '\n')
                {
                    fail();
                    break;
                }
                lineBytes = 0;
                if (size == 0)
                {
                    state = TRAILER_START;
                }
                else
                {
                    dataRemaining = size;
                    state = DATA;
                }
                size = 0;
                break;
            case DATA_CR:
                state = b == '\r' ? DATA_LF : fail();
                break;
            case DATA_LF:
                state = b == '\n' ? SIZE_FIRST : fail();
                break;
            case TRAILER_START:
                if (b == '\r')
                {
                    state = END_LF;
                }
                else
                {
                    state = Ascii.isTchar(b) ? TRAILER_NAME : fail(); // also rejects a folded line
                }
                break;
            case TRAILER_NAME:
                if (b == ':')
                {
                    state = TRAILER_VALUE;
                }
                else if (!Ascii.isTchar(b))
                {
                    fail();
                }
                break;
            case TRAILER_VALUE:
                if (b == '\r')
                {
                    state = TRAILER_LF;
                }
                else if (!Ascii.isFieldVchar(b) && b != ' ' && b != '\t')
                {
                    fail();
                }
                break;
            case TRAILER_LF:
                state = b == '\n' ? TRAILER_START : fail();
                break;
            case END_LF:
                state = b == '\n' ? DONE : fail();
                break;
            default:
                fail();
        }
    }

    /** After the size or an extension: more whitespace, another extension, or the line's end. */
    private void afterSize(final int b)
    {
        if (b == ' ' || b == '\t')
        {
            state = state == EXT_TOKEN ? EXT_AFTER_VALUE : (state == SIZE ? EXT_BWS : state);
        }
        else if (b == ';')
        {
            state = EXT_NAME_START;
        }
        else if (b == '\r')
        {
            state = SIZE_LF;
        }
        else
        {
            fail();
        }
    }

    private void afterName(final int b)
    {
        if (b == '=')
        {
            state = EXT_VALUE_START;
        }
        else if (b == ' ' || b == '\t')
        {
            state = EXT_AFTER_NAME;
        }
        else
        {
            afterSize(b);
        }
    }

    private int fail()
    {
        status = HttpStatus.BAD_REQUEST;
        return state;
    }
}
