package io.celer.bench.ticktotrade;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.celer.examples.ticktotrade.FixMessage;
import io.celer.examples.ticktotrade.Quote;

import static org.assertj.core.api.Assertions.assertThat;

class QuoteOrderMatcherTest
{
    @Test
    void eachQuoteIsMatchedToTheOrderCarryingItsId()
    {
        final QuoteOrderMatcher matcher = new QuoteOrderMatcher(101, 103);
        matcher.quote(1_000, quote(101));
        matcher.quote(2_000, quote(102));
        matcher.quote(3_000, quote(103));
        matcher.order(2_500, order(102)); // out of order on purpose: matching is by id, not by position
        matcher.order(1_040, order(101));
        matcher.order(3_090, order(103));

        final QuoteOrderMatcher.Result result = matcher.result();
        assertThat(result.quotes()).isEqualTo(3);
        assertThat(result.matched()).isEqualTo(3);
        assertThat(result.misordered()).isZero();
        assertThat(result.wireToWire().getMinValue()).isEqualTo(40);
        assertThat(result.wireToWire().getMaxValue()).isEqualTo(500);
        assertThat(result.wireToWire().getValueAtPercentile(50)).isEqualTo(90);
    }

    @Test
    void theEarliestFrameOfAPacketSeenTwiceCounts()
    {
        // Multicast looped back on the capturing interface may show the same datagram twice.
        final QuoteOrderMatcher matcher = new QuoteOrderMatcher(1, 1);
        matcher.quote(1_200, quote(1));
        matcher.quote(1_000, quote(1));
        matcher.order(1_500, order(1));
        matcher.order(1_300, order(1));

        final QuoteOrderMatcher.Result result = matcher.result();
        assertThat(result.matched()).isEqualTo(1);
        assertThat(result.wireToWire().getMaxValue()).isEqualTo(300);
        assertThat(matcher.quoteFrames()).isEqualTo(2);
        assertThat(matcher.orderMessages()).isEqualTo(2);
    }

    @Test
    void onlyNewOrdersCountAndEveryOneInASegment()
    {
        final QuoteOrderMatcher matcher = new QuoteOrderMatcher(1, 3);
        matcher.quote(100, quote(1));
        matcher.quote(100, quote(2));
        matcher.quote(100, quote(3));
        final ByteBuffer report = new FixMessage(ByteBuffer.allocate(256)).begin('8').field(37, 9).field(11, 3)
            .field(150, 'F').end();
        matcher.order(400, concat(order(1), bytes(report), order(2)));

        final QuoteOrderMatcher.Result result = matcher.result();
        assertThat(result.matched()).as("an execution report naming quote 3 is no order").isEqualTo(2);
        assertThat(result.ordersSeen()).isEqualTo(2);
        assertThat(result.quotesSeen()).isEqualTo(3);
    }

    @Test
    void fragmentsProbesAndIdsOutsideTheMeasuredRangeAreSkipped()
    {
        final QuoteOrderMatcher matcher = new QuoteOrderMatcher(10, 12);
        matcher.quote(100, "celer-wire-probe-start".getBytes(StandardCharsets.US_ASCII));
        matcher.quote(100, quote(9)); // a warm-up quote still in flight
        matcher.quote(100, quote(10));
        matcher.quote(100, quote(11));
        matcher.order(200, order(9));
        final byte[] whole = order(10);
        final byte[] head = java.util.Arrays.copyOf(whole, 26); // ends "35=D|11=1": cut inside "11=10"
        matcher.order(200, head);
        matcher.order(150, order(11));
        matcher.order(300, new byte[0]); // a bare acknowledgement

        final QuoteOrderMatcher.Result result = matcher.result();
        assertThat(matcher.ignored()).isEqualTo(1);
        assertThat(result.quotesSeen()).isEqualTo(2);
        assertThat(result.ordersSeen()).as("quote 10's order was cut; 11's is whole").isEqualTo(1);
        assertThat(result.matched()).isEqualTo(1);
        assertThat(result.wireToWire().getMaxValue()).isEqualTo(50);
    }

    @Test
    void anOrderStampedBeforeItsQuoteIsCountedApartNotMeasured()
    {
        final QuoteOrderMatcher matcher = new QuoteOrderMatcher(1, 2);
        matcher.quote(500, quote(1));
        matcher.order(400, order(1));

        final QuoteOrderMatcher.Result result = matcher.result();
        assertThat(result.misordered()).isEqualTo(1);
        assertThat(result.matched()).isZero();
        assertThat(result.quotes()).isEqualTo(2);
    }

    private static byte[] quote(final long id)
    {
        final ByteBuffer quote = ByteBuffer.allocate(Quote.LENGTH);
        Quote.write(quote, id, (byte)'B', "CELR", 100, 1_234_500);
        return quote.array();
    }

    private static byte[] order(final long quoteId)
    {
        final ByteBuffer quote = ByteBuffer.wrap(quote(quoteId));
        return bytes(new FixMessage(ByteBuffer.allocate(256)).begin('D')
            .field(11, Quote.id(quote))
            .field(55, quote, 9, Quote.SYMBOL_LENGTH)
            .field(54, '2')
            .field(38, Quote.size(quote))
            .price(44, Quote.price(quote))
            .field(40, '2')
            .end());
    }

    private static byte[] bytes(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static byte[] concat(final byte[]... parts)
    {
        int length = 0;
        for (final byte[] part : parts)
        {
            length += part.length;
        }
        final ByteBuffer all = ByteBuffer.allocate(length);
        for (final byte[] part : parts)
        {
            all.put(part);
        }
        return all.array();
    }
}
