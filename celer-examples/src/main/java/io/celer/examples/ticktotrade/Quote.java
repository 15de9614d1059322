package io.celer.examples.ticktotrade;

import java.nio.ByteBuffer;

/**
 * A market-data quote as it travels in a datagram: a fixed binary layout, big-endian, read in place.
 *
 * <pre>
 *   0  long  quote id
 *   8  byte  side: 'B' (bid) or 'S' (ask)
 *   9  8     symbol, ASCII, space padded
 *  17  int   size
 *  21  long  price in ten-thousandths
 *  29        end
 * </pre>
 */
public final class Quote
{
    /** Bytes of one quote. */
    public static final int LENGTH = 29;
    /** Bytes of a symbol. */
    public static final int SYMBOL_LENGTH = 8;
    /** Price units per currency unit. */
    public static final long PRICE_SCALE = 10_000;

    private static final int ID = 0;
    private static final int SIDE = 8;
    private static final int SYMBOL = 9;
    private static final int SIZE = 17;
    private static final int PRICE = 21;

    private Quote()
    {
    }

    /**
     * Writes a quote at the buffer's position and advances it.
     *
     * @param out    where.
     * @param id     quote id.
     * @param side   {@code 'B'} or {@code 'S'}.
     * @param symbol up to 8 ASCII chars.
     * @param size   quantity.
     * @param price  in ten-thousandths.
     */
    public static void write(
        final ByteBuffer out, final long id, final byte side, final CharSequence symbol, final int size, final long price)
    {
        final int at = out.position();
        out.putLong(at + ID, id);
        out.put(at + SIDE, side);
        for (int i = 0; i < SYMBOL_LENGTH; i++)
        {
            out.put(at + SYMBOL + i, i < symbol.length() ? (byte)symbol.charAt(i) : (byte)' ');
        }
        out.putInt(at + SIZE, size);
        out.putLong(at + PRICE, price);
        out.position(at + LENGTH);
    }

    /**
     * Whether the bytes between position and limit are one well-formed quote.
     *
     * @param in the datagram.
     * @return false for a truncated or padded datagram, an unknown side, a non-positive size or price.
     */
    public static boolean isValid(final ByteBuffer in)
    {
        if (in.remaining() != LENGTH)
        {
            return false;
        }
        final byte side = side(in);
        return (side == 'B' || side == 'S') && size(in) > 0 && price(in) > 0;
    }

    /**
     * @param in a valid quote.
     * @return its id.
     */
    public static long id(final ByteBuffer in)
    {
        return in.getLong(in.position() + ID);
    }

    /**
     * @param in a valid quote.
     * @return its side.
     */
    public static byte side(final ByteBuffer in)
    {
        return in.get(in.position() + SIDE);
    }

    /**
     * @param in    a valid quote.
     * @param index 0 to 7.
     * @return one byte of its symbol.
     */
    public static byte symbolByte(final ByteBuffer in, final int index)
    {
        return in.get(in.position() + SYMBOL + index);
    }

    /**
     * @param in a valid quote.
     * @return its size.
     */
    public static int size(final ByteBuffer in)
    {
        return in.getInt(in.position() + SIZE);
    }

    /**
     * @param in a valid quote.
     * @return its price in ten-thousandths.
     */
    public static long price(final ByteBuffer in)
    {
        return in.getLong(in.position() + PRICE);
    }
}
