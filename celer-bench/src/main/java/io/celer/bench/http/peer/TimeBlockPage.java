package io.celer.bench.http.peer;

import java.nio.charset.StandardCharsets;

/**
 * The 2009 paper's {@code /gettimeblock} page: an HTML heading of 512 blocks of 8 digits, each block the last 8
 * decimal digits of its own {@link System#nanoTime()}, so every request computes its page afresh.
 *
 * <p>The paper took characters 8 to 16 of the time's decimal text; the remainder modulo 10^8, zero-padded, is
 * the same digits whatever the machine's uptime, without building a string per block.
 */
public final class TimeBlockPage
{
    /** Blocks a page holds. */
    public static final int BLOCKS = 512;
    /** Digits a block holds. */
    public static final int DIGITS = 8;

    private static final byte[] PREFIX = "<html><body><h1>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SUFFIX = "</h1></body></html>".getBytes(StandardCharsets.US_ASCII);
    private static final long MODULUS = 100_000_000L;

    /** The page's length in bytes, the same for every request. */
    public static final int LENGTH = PREFIX.length + BLOCKS * DIGITS + SUFFIX.length;

    private TimeBlockPage()
    {
    }

    /**
     * Writes a fresh page.
     *
     * @param dst    where, with {@link #LENGTH} bytes free from {@code offset}.
     * @param offset the first byte.
     * @return the offset after the page.
     */
    public static int write(final byte[] dst, final int offset)
    {
        int at = offset;
        System.arraycopy(PREFIX, 0, dst, at, PREFIX.length);
        at += PREFIX.length;
        for (int block = 0; block < BLOCKS; block++)
        {
            long digits = System.nanoTime() % MODULUS;
            for (int i = at + DIGITS - 1; i >= at; i--)
            {
                dst[i] = (byte)('0' + digits % 10);
                digits /= 10;
            }
            at += DIGITS;
        }
        System.arraycopy(SUFFIX, 0, dst, at, SUFFIX.length);
        return at + SUFFIX.length;
    }

    /**
     * A fresh page in a new array.
     *
     * @return the page's bytes.
     */
    public static byte[] page()
    {
        final byte[] page = new byte[LENGTH];
        write(page, 0);
        return page;
    }
}
