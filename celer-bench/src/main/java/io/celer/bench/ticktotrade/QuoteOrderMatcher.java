package io.celer.bench.ticktotrade;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.HdrHistogram.Histogram;

import io.celer.examples.ticktotrade.FixMessage;
import io.celer.examples.ticktotrade.Quote;

/**
 * Pairs captured quote frames with the order frames they caused, by quote id, and measures the time between
 * them on the wire.
 *
 * <p>A quote datagram carries its id in its first 8 bytes; the order the strategy sends for it is a FIX new
 * order ({@code 35=D}) whose {@code ClOrdID} (tag 11) is that id. Only ids in the measured range count. When a
 * packet is seen more than once (multicast looped back on the same interface), its earliest frame counts.
 */
final class QuoteOrderMatcher
{
    private static final long NONE = Long.MIN_VALUE;

    private final long firstQuoteId;
    private final long[] quoteNanos;
    private final long[] orderNanos;
    private long quoteFrames;
    private long orderMessages;
    private long ignored;

    /**
     * The outcome of matching.
     *
     * @param quotes      measured quotes.
     * @param quotesSeen  measured quotes whose datagram was captured.
     * @param ordersSeen  measured quotes whose order was captured.
     * @param matched     quotes with both, the order after the quote: the histogram's count.
     * @param misordered  quotes whose order frame came before the quote frame (a clock or capture fault).
     * @param wireToWire  nanoseconds from quote frame to order frame, matched quotes only.
     */
    record Result(long quotes, long quotesSeen, long ordersSeen, long matched, long misordered, Histogram wireToWire)
    {
    }

    /**
     * A matcher for the quotes of a measured phase.
     *
     * @param firstQuoteId the first measured id.
     * @param lastQuoteId  the last measured id, inclusive.
     */
    QuoteOrderMatcher(final long firstQuoteId, final long lastQuoteId)
    {
        if (lastQuoteId < firstQuoteId || lastQuoteId - firstQuoteId >= Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("bad quote id range " + firstQuoteId + ".." + lastQuoteId);
        }
        this.firstQuoteId = firstQuoteId;
        final int quotes = (int)(lastQuoteId - firstQuoteId + 1);
        quoteNanos = new long[quotes];
        orderNanos = new long[quotes];
        Arrays.fill(quoteNanos, NONE);
        Arrays.fill(orderNanos, NONE);
    }

    /**
     * A captured quote datagram.
     *
     * @param epochNanos the frame's capture time.
     * @param payload    the UDP payload.
     */
    void quote(final long epochNanos, final byte[] payload)
    {
        final ByteBuffer quote = ByteBuffer.wrap(payload);
        if (!Quote.isValid(quote))
        {
            ignored++;
            return;
        }
        quoteFrames++;
        earliest(quoteNanos, Quote.id(quote), epochNanos);
    }

    /**
     * A captured TCP segment towards the exchange: every whole new order in it counts, other messages and
     * fragments are skipped.
     *
     * @param epochNanos the frame's capture time.
     * @param payload    the TCP payload, maybe empty.
     */
    void order(final long epochNanos, final byte[] payload)
    {
        int fieldStart = 0;
        boolean newOrder = false;
        for (int i = 0; i <= payload.length; i++)
        {
            if (i < payload.length && payload[i] != FixMessage.SOH)
            {
                continue;
            }
            if (i == payload.length)
            {
                break; // an unterminated field: a message cut across segments, not counted
            }
            if (startsWith(payload, fieldStart, i, "8="))
            {
                newOrder = false; // a new message begins
            }
            else if (startsWith(payload, fieldStart, i, "35="))
            {
                newOrder = i - fieldStart == 4 && payload[fieldStart + 3] == 'D';
            }
            else if (newOrder && startsWith(payload, fieldStart, i, "11="))
            {
                final long id = number(payload, fieldStart + 3, i);
                if (id >= 0)
                {
                    orderMessages++;
                    earliest(orderNanos, id, epochNanos);
                }
            }
            fieldStart = i + 1;
        }
    }

    /**
     * Matches what was seen and records the wire-to-wire times.
     *
     * @return the counts and the histogram.
     */
    Result result()
    {
        final Histogram histogram = new Histogram(60_000_000_000L, 3);
        long quotesSeen = 0;
        long ordersSeen = 0;
        long misordered = 0;
        for (int i = 0; i < quoteNanos.length; i++)
        {
            final boolean quoteSeen = quoteNanos[i] != NONE;
            final boolean orderSeen = orderNanos[i] != NONE;
            quotesSeen += quoteSeen ? 1 : 0;
            ordersSeen += orderSeen ? 1 : 0;
            if (quoteSeen && orderSeen)
            {
                final long nanos = orderNanos[i] - quoteNanos[i];
                if (nanos < 0)
                {
                    misordered++;
                }
                else
                {
                    histogram.recordValue(Math.min(nanos, histogram.getHighestTrackableValue()));
                }
            }
        }
        return new Result(quoteNanos.length, quotesSeen, ordersSeen, histogram.getTotalCount(), misordered,
            histogram);
    }

    /** @return quote datagrams of the right shape, measured or not, duplicates included. */
    long quoteFrames()
    {
        return quoteFrames;
    }

    /** @return new orders found in the segments, measured or not, duplicates included. */
    long orderMessages()
    {
        return orderMessages;
    }

    /** @return datagrams that were not quotes (probes, malformed quotes). */
    long ignored()
    {
        return ignored;
    }

    private void earliest(final long[] times, final long id, final long epochNanos)
    {
        final long index = id - firstQuoteId;
        if (index < 0 || index >= times.length)
        {
            return; // a warm-up quote still in flight when the capture started, or a probe
        }
        final int i = (int)index;
        if (times[i] == NONE || epochNanos < times[i])
        {
            times[i] = epochNanos;
        }
    }

    private static boolean startsWith(final byte[] bytes, final int from, final int to, final String prefix)
    {
        if (to - from < prefix.length())
        {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++)
        {
            if (bytes[from + i] != prefix.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private static long number(final byte[] bytes, final int from, final int to)
    {
        if (from == to || to - from > 18)
        {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++)
        {
            final int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9)
            {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
