package io.celer.bench.conns;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * What the client read of one answer, read in as few calls as the server's writes allow: a read per byte would
 * add a system call per byte to the round trips the fresh client times.
 */
final class AnswerBuffer
{
    private static final int CAPACITY = 16 * 1024;

    private final byte[] bytes = new byte[CAPACITY];
    private int length;

    /** Forgets what was read: the next answer starts at 0. */
    void clear()
    {
        length = 0;
    }

    /** @return bytes read since {@link #clear()}. */
    int length()
    {
        return length;
    }

    /**
     * A byte read.
     *
     * @param index from 0.
     * @return the byte, unsigned.
     */
    int at(final int index)
    {
        return bytes[index] & 0xFF;
    }

    /**
     * Reads until at least a number of bytes are in.
     *
     * @param in    the connection's input.
     * @param count the bytes wanted, at most 16 KiB.
     * @throws IOException on the end of input before, a timeout, or an answer larger than the buffer.
     */
    void readAtLeast(final InputStream in, final int count) throws IOException
    {
        if (count > CAPACITY)
        {
            throw new IOException("an answer of " + count + " bytes is larger than the client reads");
        }
        while (length < count)
        {
            readMore(in);
        }
    }

    /**
     * Reads an HTTP answer's head, from a cleared buffer, and checks its status.
     *
     * @param in     the connection's input.
     * @param status the status code wanted, such as {@code 200}.
     * @return the index just past the head's blank line.
     * @throws IOException on the end of input before, a timeout, a head larger than the buffer, or another status.
     */
    int readHead(final InputStream in, final int status) throws IOException
    {
        final int headEnd = readHead(in);
        final String wanted = "HTTP/1.1 " + status;
        if (headEnd < wanted.length() || !text(0, wanted.length()).equals(wanted))
        {
            throw new IOException("expected " + wanted + ", got: " + text(0, Math.min(headEnd, 80)).trim());
        }
        return headEnd;
    }

    private int readHead(final InputStream in) throws IOException
    {
        int scanned = 0;
        while (true)
        {
            for (int i = Math.max(3, scanned); i < length; i++)
            {
                if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r')
                {
                    return i + 1;
                }
            }
            scanned = length;
            readMore(in);
        }
    }

    /**
     * Part of what was read, as text.
     *
     * @param from  the first byte.
     * @param to    past the last.
     * @return the ASCII text.
     */
    String text(final int from, final int to)
    {
        return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private void readMore(final InputStream in) throws IOException
    {
        if (length == CAPACITY)
        {
            throw new IOException("an answer is larger than the " + CAPACITY + " bytes the client reads");
        }
        final int read = in.read(bytes, length, CAPACITY - length);
        if (read < 0)
        {
            throw new EOFException("the server closed the connection after " + length + " bytes of its answer");
        }
        length += read;
    }
}
