package io.celer.http.internal;

import java.nio.ByteBuffer;

/**
 * Finds where a message's head ends, the first empty line after its start line (RFC 9112, 2.1), across reads
 * and without rescanning: each call looks only at the bytes the last one did not see. Requests and responses
 * share it; each parser checks its own limits against what it found.
 */
public final class HeadScanner
{
    private int scanned;
    private int firstLf;
    private int lineStart;
    private int headEnd;

    /**
     * A scanner at the start of a head.
     */
    public HeadScanner()
    {
        reset();
    }

    /**
     * Forgets the head in progress.
     */
    public void reset()
    {
        scanned = 0;
        firstLf = -1;
        lineStart = 0;
        headEnd = -1;
    }

    /**
     * Scans the bytes after those seen so far, up to the head's end.
     *
     * @param buffer the bytes.
     * @param start  absolute index of the message.
     * @param to     absolute index after the last byte read.
     * @return whether the head's end was found.
     */
    public boolean scan(final ByteBuffer buffer, final int start, final int to)
    {
        int i = start + scanned;
        for (; i < to; i++)
        {
            i = WordScan.lineFeed(buffer, i, to);
            if (i < 0)
            {
                i = to;
                break;
            }
            final int at = i - start;
            if (firstLf < 0)
            {
                firstLf = at; // the start line never ends the head, even when empty
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
        return headEnd >= 0;
    }

    /**
     * Takes a head another scan of the same bytes found whole, as if this scanner had found it.
     *
     * @param firstLineFeed bytes from the message's start to its start line's LF.
     * @param length        bytes of the head with its empty line.
     */
    public void found(final int firstLineFeed, final int length)
    {
        firstLf = firstLineFeed;
        lineStart = length;
        scanned = length - 1; // up to the empty line's LF, where a scan of its own stops
        headEnd = length;
    }

    /**
     * Bytes of the message seen so far.
     *
     * @return bytes from the message's start, up to the head's last LF once found.
     */
    public int scanned()
    {
        return scanned;
    }

    /**
     * Where the start line's LF is.
     *
     * @return bytes from the message's start, or -1 before it is seen.
     */
    public int firstLineFeed()
    {
        return firstLf;
    }

    /**
     * Where the head ends, once found.
     *
     * @return bytes of the head with its empty line, or -1 before.
     */
    public int headLength()
    {
        return headEnd;
    }

    /**
     * Whether some of a head has been seen and not yet all.
     *
     * @return true in the middle of a head.
     */
    public boolean inProgress()
    {
        return scanned > 0 && headEnd < 0;
    }
}
