package io.celer.framing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class FixedSizeFramingTest
{
    @Test
    void cutsFixedSizeMessagesAndKeepsTheRemainder()
    {
        final Frames frames = new Frames(new FixedSizeFraming(4), 64).read("aaaabbbbcc");
        assertThat(frames.messages()).containsExactly("aaaa", "bbbb");
        assertThat(frames.pending()).isEqualTo(2);
        frames.read("cc");
        assertThat(frames.messages()).containsExactly("aaaa", "bbbb", "cccc");
    }

    @Test
    void deliversTheSameMessagesWhenBytesTrickleIn()
    {
        assertThat(new Frames(new FixedSizeFraming(3), 8)
            .dribble("abcdefghi".getBytes(StandardCharsets.US_ASCII)).messages())
            .containsExactly("abc", "def", "ghi");
    }

    @Test
    void refusesToWriteAMessageOfAnotherSize()
    {
        assertThatThrownBy(() -> new FixedSizeFraming(4).frameLength(3))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("message of 3 bytes, fixed size is 4");
    }
}
