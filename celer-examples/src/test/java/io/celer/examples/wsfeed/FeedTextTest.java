package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * Feed messages' text: sequence number, send and due times, padding, and reading them back.
 */
class FeedTextTest
{
    @Test
    void writesTheHeaderThenPadsToTheSize()
    {
        final FeedText text = new FeedText(24);
        assertThat(ascii(text.write(7, 1234, 1200))).isEqualTo("7 1234 1200 xxxxxxxxxxxx");
    }

    @Test
    void zeroIsOneDigit()
    {
        final FeedText text = new FeedText(10);
        assertThat(ascii(text.write(0, 0, 0))).isEqualTo("0 0 0 xxxx");
    }

    @Test
    void writesEveryNumberAsLongToStringDoes()
    {
        final FeedText text = new FeedText(8);
        final SplittableRandom random = new SplittableRandom(29);
        long power = 1;
        for (int digits = 1; digits <= 19; digits++)
        {
            // Each count of digits at its edges (10^n - 1, 10^n, 10^n + 1), then random values of every size.
            final long[] values = {power - 1, power, power + 1, random.nextLong(Long.MAX_VALUE >> random.nextInt(63))};
            for (final long value : values)
            {
                final long other = random.nextLong(Long.MAX_VALUE);
                assertThat(ascii(text.write(value, other, value / 3)))
                    .startsWith(value + " " + other + " " + value / 3 + " ");
            }
            power = digits < 19 ? power * 10 : power;
        }
        assertThat(ascii(text.write(Long.MAX_VALUE - 1, 99, 100))).startsWith((Long.MAX_VALUE - 1) + " 99 100 ");
    }

    @Test
    void aNegativeNumberIsRefused()
    {
        assertThatThrownBy(() -> new FeedText(8).write(1, -5, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsBackWhatItWrote()
    {
        final FeedText text = new FeedText(250);
        final String message = ascii(text.write(42, 987654321L, 987000000L));
        assertThat(message).hasSize(250);
        assertThat(FeedText.sequence(message)).isEqualTo(42);
        assertThat(FeedText.sendNanos(message)).isEqualTo(987654321L);
        assertThat(FeedText.dueNanos(message)).isEqualTo(987000000L);
    }

    @Test
    void theLongestHeaderFitsAndIsNotCut()
    {
        final FeedText text = new FeedText(4);
        final String message = ascii(text.write(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        assertThat(message).hasSize(FeedText.MAX_HEADER)
            .isEqualTo(Long.MAX_VALUE + " " + Long.MAX_VALUE + " " + Long.MAX_VALUE + " ");
        assertThat(text.maxLength()).isEqualTo(FeedText.MAX_HEADER);
    }

    @Test
    void aShorterHeaderAfterALongerOneLeavesPaddingOnly()
    {
        final FeedText text = new FeedText(50);
        text.write(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(ascii(text.write(1, 2, 3))).isEqualTo("1 2 3 " + "x".repeat(44));
    }

    @Test
    void aMessageWithoutTimesIsRefused()
    {
        assertThatThrownBy(() -> FeedText.dueNanos("12 34")).isInstanceOf(NumberFormatException.class);
    }

    private static String ascii(final ByteBuffer bytes)
    {
        final byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        return new String(copy, StandardCharsets.US_ASCII);
    }
}
