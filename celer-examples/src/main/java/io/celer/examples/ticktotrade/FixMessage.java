package io.celer.examples.ticktotrade;

import java.nio.ByteBuffer;

/**
 * Writes and reads the few FIX-style {@code tag=value} fields this example needs, without allocating.
 *
 * <p>Fields end with SOH (0x01); a message starts with {@code 8=FIX.4.4|9=<body length>|} and ends with the
 * checksum field {@code 10=<sum of all previous bytes mod 256, 3 digits>|}, as in FIX.
 */
public final class FixMessage
{
    /** The field separator. */
    public static final byte SOH = 0x01;

    private static final byte[] BEGIN = "8=FIX.4.4\u00019=".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int BODY_LENGTH_DIGITS = 4;

    private final ByteBuffer out;
    private int bodyStart;
    private int bodyLengthAt;

    /**
     * An encoder writing into a buffer it reuses for every message.
     *
     * @param out the buffer.
     */
    public FixMessage(final ByteBuffer out)
    {
        this.out = out;
    }

    /**
     * Starts a message: clears the buffer and writes the header and the message type.
     *
     * @param msgType the value of tag 35, e.g. {@code D} for a new order.
     * @return this.
     */
    public FixMessage begin(final char msgType)
    {
        out.clear();
        out.put(BEGIN);
        bodyLengthAt = out.position();
        for (int i = 0; i < BODY_LENGTH_DIGITS; i++)
        {
            out.put((byte)'0'); // fixed width, filled in at the end
        }
        out.put(SOH);
        bodyStart = out.position();
        tag(35).put((byte)msgType).put(SOH);
        return this;
    }

    /**
     * Adds a number field.
     *
     * @param tag   the tag.
     * @param value a value of at least 0.
     * @return this.
     */
    public FixMessage field(final int tag, final long value)
    {
        tag(tag);
        digits(value);
        out.put(SOH);
        return this;
    }

    /**
     * Adds a one-char field.
     *
     * @param tag   the tag.
     * @param value the char.
     * @return this.
     */
    public FixMessage field(final int tag, final char value)
    {
        tag(tag).put((byte)value).put(SOH);
        return this;
    }

    /**
     * Adds a price field, {@code units.ffff}.
     *
     * @param tag   the tag.
     * @param price in ten-thousandths.
     * @return this.
     */
    public FixMessage price(final int tag, final long price)
    {
        tag(tag);
        digits(price / Quote.PRICE_SCALE);
        out.put((byte)'.');
        final long fraction = price % Quote.PRICE_SCALE;
        for (long scale = Quote.PRICE_SCALE / 10; scale > 0; scale /= 10)
        {
            out.put((byte)('0' + (fraction / scale) % 10));
        }
        out.put(SOH);
        return this;
    }

    /**
     * Adds a field whose value is copied from bytes of a buffer, trailing spaces dropped.
     *
     * @param tag    the tag.
     * @param from   the source.
     * @param offset first byte, absolute.
     * @param length bytes.
     * @return this.
     */
    public FixMessage field(final int tag, final ByteBuffer from, final int offset, final int length)
    {
        tag(tag);
        int end = offset + length;
        while (end > offset && from.get(end - 1) == ' ')
        {
            end--;
        }
        for (int i = offset; i < end; i++)
        {
            out.put(from.get(i));
        }
        out.put(SOH);
        return this;
    }

    /**
     * Ends the message: fills in the body length, appends the checksum and flips the buffer.
     *
     * @return the buffer, ready to send.
     */
    public ByteBuffer end()
    {
        int bodyLength = out.position() - bodyStart;
        for (int i = BODY_LENGTH_DIGITS - 1; i >= 0; i--)
        {
            out.put(bodyLengthAt + i, (byte)('0' + bodyLength % 10));
            bodyLength /= 10;
        }
        final int checksum = checksum(out, 0, out.position());
        tag(10);
        out.put((byte)('0' + checksum / 100)).put((byte)('0' + checksum / 10 % 10)).put((byte)('0' + checksum % 10));
        out.put(SOH);
        return out.flip();
    }

    /**
     * The FIX checksum of a range of bytes.
     *
     * @param in     the bytes.
     * @param from   first, absolute.
     * @param to     end, exclusive.
     * @return the sum mod 256.
     */
    public static int checksum(final ByteBuffer in, final int from, final int to)
    {
        int sum = 0;
        for (int i = from; i < to; i++)
        {
            sum += in.get(i) & 0xFF;
        }
        return sum & 0xFF;
    }

    /**
     * Finds a number field in a message.
     *
     * @param in  a whole message between position and limit.
     * @param tag the tag.
     * @return its value, or -1 when absent or not a number.
     */
    public static long numberField(final ByteBuffer in, final int tag)
    {
        final int at = valueIndex(in, tag);
        if (at < 0)
        {
            return -1;
        }
        long value = 0;
        int i = at;
        for (; i < in.limit() && in.get(i) != SOH; i++)
        {
            final int digit = in.get(i) - '0';
            if (digit < 0 || digit > 9)
            {
                return -1;
            }
            value = value * 10 + digit;
        }
        return i == at ? -1 : value;
    }

    /**
     * Where the value of a field starts.
     *
     * @param in  a whole message between position and limit.
     * @param tag the tag.
     * @return the absolute index, or -1 when absent.
     */
    public static int valueIndex(final ByteBuffer in, final int tag)
    {
        int fieldStart = in.position();
        while (fieldStart < in.limit())
        {
            int i = fieldStart;
            int parsed = 0;
            while (i < in.limit() && in.get(i) >= '0' && in.get(i) <= '9')
            {
                parsed = parsed * 10 + in.get(i) - '0';
                i++;
            }
            if (i < in.limit() && in.get(i) == '=' && parsed == tag && i > fieldStart)
            {
                return i + 1;
            }
            while (i < in.limit() && in.get(i) != SOH)
            {
                i++;
            }
            fieldStart = i + 1;
        }
        return -1;
    }

    private ByteBuffer tag(final int tag)
    {
        digits(tag);
        return out.put((byte)'=');
    }

    private void digits(final long value)
    {
        long scale = 1;
        while (value / scale >= 10)
        {
            scale *= 10;
        }
        for (; scale > 0; scale /= 10)
        {
            out.put((byte)('0' + (value / scale) % 10));
        }
    }
}
