package io.celer.examples.ticktotrade;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class TickToTradeTest
{
    @Test
    void everyMeasuredQuoteBecomesAnOrderAndMalformedQuotesAreDropped() throws Exception
    {
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        final List<Object> told = new ArrayList<>();
        final TickToTrade.Result result = TickToTrade.run(50_000, 2_000, 20, out, new MeasurementListener()
        {
            @Override
            public void beforeMeasuring(final Phase phase)
            {
                told.add(phase);
            }

            @Override
            public void afterMeasuring()
            {
                told.add("after");
            }
        });
        TickToTrade.print(result, out);

        assertThat(result.lost()).isZero();
        assertThat(result.tickToTrade().getTotalCount()).isEqualTo(2_000);
        assertThat(result.malformed()).as("one truncated quote every 10,000").isEqualTo(5);
        assertThat(result.orders()).isEqualTo(52_000);
        assertThat(result.tickToTrade().getValueAtPercentile(50)).isPositive();
        assertThat(printed.toString(StandardCharsets.UTF_8))
            .contains("tick-to-trade inside the process", "p99.9", "malformed datagrams dropped 5");

        assertThat(told).hasSize(2).last().isEqualTo("after");
        final MeasurementListener.Phase phase = (MeasurementListener.Phase)told.get(0);
        assertThat(phase.firstQuoteId()).isEqualTo(50_001);
        assertThat(phase.lastQuoteId()).isEqualTo(52_000);
        assertThat(phase.transport()).isEqualTo(result.transport());
        assertThat(phase.interfaceName()).isNotEmpty();
        assertThat(phase.quoteTarget().getPort()).isPositive();
        assertThat(phase.quoteSource().getPort()).isPositive();
        assertThat(phase.exchange().getPort()).isPositive();
    }

    @Test
    void ordersCarryTheQuoteAndAValidChecksum()
    {
        final ByteBuffer quote = ByteBuffer.allocate(Quote.LENGTH);
        Quote.write(quote, 42, (byte)'B', "CELR", 250, 1_234_5678L);
        quote.flip();
        assertThat(Quote.isValid(quote)).isTrue();

        final ByteBuffer order = new FixMessage(ByteBuffer.allocate(256)).begin('D')
            .field(11, Quote.id(quote))
            .field(55, quote, quote.position() + 9, Quote.SYMBOL_LENGTH)
            .field(54, '2')
            .field(38, Quote.size(quote))
            .price(44, Quote.price(quote))
            .end();
        final byte[] bytes = new byte[order.remaining()];
        order.duplicate().get(bytes);
        final String text = new String(bytes, StandardCharsets.US_ASCII).replace('\u0001', '|');
        assertThat(text).startsWith("8=FIX.4.4|9=0044|35=D|11=42|55=CELR|54=2|38=250|44=1234.5678|10=");
        final int checksumAt = bytes.length - 4;
        assertThat(Integer.parseInt(text.substring(checksumAt, checksumAt + 3)))
            .isEqualTo(FixMessage.checksum(order, 0, bytes.length - 7));
        assertThat(FixMessage.numberField(order, 11)).isEqualTo(42);
        assertThat(FixMessage.numberField(order, 999)).isEqualTo(-1);
    }

    @Test
    void malformedQuotesAreRecognised()
    {
        final ByteBuffer quote = ByteBuffer.allocate(Quote.LENGTH + 1);
        Quote.write(quote, 1, (byte)'X', "CELR", 1, 1);
        quote.flip();
        assertThat(Quote.isValid(quote)).as("unknown side").isFalse();
        quote.clear();
        Quote.write(quote, 1, (byte)'S', "CELR", 1, 1);
        quote.flip().limit(Quote.LENGTH - 1);
        assertThat(Quote.isValid(quote)).as("truncated").isFalse();
    }
}
