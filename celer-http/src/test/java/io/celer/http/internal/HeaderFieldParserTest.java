package io.celer.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * {@link HeaderFieldParser#scan} fills a {@link HeadFields} table that starts small and grows, kept, up to its
 * most fields, past which a head is refused.
 */
class HeaderFieldParserTest
{
    private static ByteBuffer fields(final int count)
    {
        final StringBuilder section = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            section.append("X-Field-").append(i).append(": value ").append(i).append("\r\n");
        }
        return ByteBuffer.wrap(section.toString().getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void theTableGrowsPastItsFirstRoomAndKeepsWhatItGrew()
    {
        final HeadFields table = new HeadFields(100);
        final ByteBuffer forty = fields(40);
        assertThat(HeaderFieldParser.scan(forty, 0, 0, forty.limit(), false, table)).isEqualTo(40);
        table.attach(forty, 0);
        assertThat(table.value("X-Field-39").toString()).isEqualTo("value 39");
        assertThat(table.name(20).toString()).isEqualTo("X-Field-20");
        final int[] grown = table.nameStart;

        final ByteBuffer thirty = fields(30);
        assertThat(HeaderFieldParser.scan(thirty, 0, 0, thirty.limit(), false, table)).isEqualTo(30);
        assertThat(table.nameStart).as("no new arrays for a smaller head").isSameAs(grown);
    }

    @Test
    void aHeadOverTheMostFieldsIsRefused()
    {
        final HeadFields table = new HeadFields(100);
        final ByteBuffer hundred = fields(100);
        assertThat(HeaderFieldParser.scan(hundred, 0, 0, hundred.limit(), false, table)).isEqualTo(100);
        final ByteBuffer tooMany = fields(101);
        assertThat(HeaderFieldParser.scan(tooMany, 0, 0, tooMany.limit(), false, table))
            .isEqualTo(HeaderFieldParser.TOO_MANY);
    }
}
