package io.celer.bench.ws.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * Feed messages' text: sequence, send and due times, padding.
 */
class FeedMessageTest
{
    @Test
    void writesSequenceTimesAndPadding()
    {
        final byte[] text = new byte[64];
        final int length = FeedMessage.write(text, 42, 1234567890123L, 1234567000000L, 40);
        assertThat(new String(text, 0, length, StandardCharsets.US_ASCII))
            .isEqualTo("42 1234567890123 1234567000000 xxxxxxxxx");
    }

    @Test
    void aHeaderLongerThanTheSizeIsNotCut()
    {
        final byte[] text = new byte[FeedMessage.MAX_HEADER];
        final int length = FeedMessage.write(text, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, 4);
        assertThat(length).isEqualTo(FeedMessage.MAX_HEADER);
        assertThat(new String(text, 0, length, StandardCharsets.US_ASCII))
            .isEqualTo(Long.MAX_VALUE + " " + Long.MAX_VALUE + " " + Long.MAX_VALUE + " ");
    }

    @Test
    void zeroIsOneDigitAndALongerTextIsPaddedAgain()
    {
        final byte[] text = new byte[64];
        FeedMessage.write(text, 123456789, 123456789012345L, 123456789012345L, 48);
        final int length = FeedMessage.write(text, 0, 7, 0, 48);
        assertThat(new String(text, 0, length, StandardCharsets.US_ASCII))
            .isEqualTo("0 7 0 " + "x".repeat(42));
    }

    @Test
    void aNegativeNumberIsRefused()
    {
        assertThatThrownBy(() -> FeedMessage.write(new byte[64], 1, -1, 0, 8))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
