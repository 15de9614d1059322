package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

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
