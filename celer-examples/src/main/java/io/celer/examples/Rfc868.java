package io.celer.examples;

import java.nio.ByteBuffer;

/**
 * The TIME protocol of RFC 868: a 4-byte unsigned big-endian count of seconds since 1900-01-01T00:00Z.
 *
 * <p>Also formats a time as ISO-8601 UTC into a byte array, so printing one creates no garbage.
 */
final class Rfc868
{
    /** Seconds from 1900-01-01 to 1970-01-01. */
    static final long SECONDS_1900_TO_1970 = 2_208_988_800L;

    /** Bytes of a time on the wire. */
    static final int LENGTH = 4;

    /** Bytes of {@code yyyy-MM-ddTHH:mm:ssZ}. */
    static final int FORMATTED_LENGTH = 20;

    private static final long SECONDS_PER_DAY = 86_400L;

    private Rfc868()
    {
    }

    /**
     * Seconds since 1900 as the protocol carries them: the low 32 bits, so the count wraps in 2036.
     *
     * @param unixMillis milliseconds since 1970, as {@link System#currentTimeMillis()} gives them.
     * @return the 32-bit value to send.
     */
    static int encode(final long unixMillis)
    {
        return (int)(Math.floorDiv(unixMillis, 1000L) + SECONDS_1900_TO_1970);
    }

    /**
     * Writes the time, now, at the buffer's position.
     *
     * @param out a buffer with 4 bytes free.
     */
    static void putNow(final ByteBuffer out)
    {
        out.putInt(encode(System.currentTimeMillis()));
    }

    /**
     * Seconds since 1970 of a received value, read as unsigned.
     *
     * @param wire the 32-bit value received.
     * @return seconds since 1970.
     */
    static long toUnixSeconds(final int wire)
    {
        return (wire & 0xFFFF_FFFFL) - SECONDS_1900_TO_1970;
    }

    /**
     * Formats a time as {@code yyyy-MM-ddTHH:mm:ssZ}, for years 0 to 9999, without allocating.
     *
     * @param unixSeconds seconds since 1970.
     * @param out         receives {@link #FORMATTED_LENGTH} bytes from index 0.
     * @return the bytes written.
     */
    static int formatUtc(final long unixSeconds, final byte[] out)
    {
        final long days = Math.floorDiv(unixSeconds, SECONDS_PER_DAY);
        final int secondOfDay = (int)Math.floorMod(unixSeconds, SECONDS_PER_DAY);

        // Proleptic Gregorian date from a day count, by 400-year eras (H. Hinnant's days-to-civil).
        final long z = days + 719_468L;
        final long era = Math.floorDiv(z, 146_097L);
        final long dayOfEra = z - era * 146_097L;
        final long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long shiftedMonth = (5 * dayOfYear + 2) / 153;
        final int day = (int)(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        final int month = (int)(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        final int year = (int)(yearOfEra + era * 400 + (month <= 2 ? 1 : 0));

        digits(out, 0, year, 4);
        out[4] = '-';
        digits(out, 5, month, 2);
        out[7] = '-';
        digits(out, 8, day, 2);
        out[10] = 'T';
        digits(out, 11, secondOfDay / 3600, 2);
        out[13] = ':';
        digits(out, 14, secondOfDay / 60 % 60, 2);
        out[16] = ':';
        digits(out, 17, secondOfDay % 60, 2);
        out[19] = 'Z';
        return FORMATTED_LENGTH;
    }

    private static void digits(final byte[] out, final int index, final int value, final int width)
    {
        int v = value;
        for (int i = index + width - 1; i >= index; i--)
        {
            out[i] = (byte)('0' + v % 10);
            v /= 10;
        }
    }
}
