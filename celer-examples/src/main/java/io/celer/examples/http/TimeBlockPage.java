package io.celer.examples.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The 2009 paper's {@code /gettimeblock} page: {@code <html><body><h1>}, 512 blocks of 8 digits, each the last 8
 * decimal digits of its own {@link System#nanoTime()} read, then {@code </h1></body></html>}.
 *
 * <p>The paper cut characters 8 to 16 out of the time's decimal String; the remainder modulo 10^8, zero-padded,
 * gives 8 digits of the clock the same way and is written digit by digit, with no String made.
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
     * Writes a fresh page at the buffer's position, which moves past it.
     *
     * @param out a heap buffer with {@link #LENGTH} bytes free.
     */
    public static void write(final ByteBuffer out)
    {
        write(out.array(), out.arrayOffset() + out.position());
        out.position(out.position() + LENGTH);
    }

    /**
     * Writes a fresh page into an array.
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
}
