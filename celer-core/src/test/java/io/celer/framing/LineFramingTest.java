package io.celer.framing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class LineFramingTest
{
    @Test
    void cutsLinesAndDropsTheirEnds()
    {
        final Frames frames = new Frames(new LineFraming(64), 256).read("one\ntwo\r\n\nthree");
        assertThat(frames.messages()).containsExactly("one", "two", "");
        assertThat(frames.pending()).isEqualTo("three".length());
        frames.read("\n");
        assertThat(frames.messages()).containsExactly("one", "two", "", "three");
        assertThat(frames.pending()).isZero();
    }

    @Test
    void deliversTheSameLinesWhenBytesTrickleInOneByOne()
    {
        final byte[] bytes = "alpha\r\nbeta\ngamma\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(new Frames(new LineFraming(64), 256).dribble(bytes).messages())
            .containsExactly("alpha", "beta", "gamma");
    }

    @Test
    void keepsACarriageReturnThatIsNotBeforeANewline()
    {
        assertThat(new Frames(new LineFraming(64), 256).read("a\rb\n").messages()).containsExactly("a\rb");
    }

    @Test
    void acceptsALineOfExactlyTheMaximumLength()
    {
        final String line = "x".repeat(16);
        final Frames frames = new Frames(new LineFraming(16), 64);
        frames.dribble((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        assertThat(frames.messages()).containsExactly(line);
    }

    @Test
    void rejectsALineOverTheMaximumOnceItsNewlineArrives()
    {
        final Frames frames = new Frames(new LineFraming(16), 64);
        assertThatThrownBy(() -> frames.read("x".repeat(17) + "\n"))
            .isInstanceOf(FramingException.class)
            .hasMessage("line of 17 bytes exceeds the maximum of 16");
    }

    @Test
    void rejectsALineOverTheMaximumBeforeItsNewlineArrives()
    {
        final Frames frames = new Frames(new LineFraming(16), 64);
        frames.read("x".repeat(17));
        assertThatThrownBy(() -> frames.read("y"))
            .isInstanceOf(FramingException.class)
            .hasMessageContaining("exceeds the maximum of 16");
    }

    @Test
    void writesLinesWithTheConfiguredEnd()
    {
        assertThat(Frames.encode(new LineFraming(8), "ab")).containsExactly('a', 'b', '\n');
        assertThat(Frames.encode(new LineFraming(8, true), "ab")).containsExactly('a', 'b', '\r', '\n');
    }

    @Test
    void stopsWhenTheSinkSaysSo()
    {
        final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap("a\nb\n".getBytes(StandardCharsets.US_ASCII));
        final int[] calls = {0};
        new LineFraming(8).decode(buffer, message ->
        {
            calls[0]++;
            return false;
        });
        assertThat(calls[0]).isOne();
        assertThat(buffer.position()).isEqualTo(2);
    }

    @Test
    void restoresTheMessageBoundsWhateverTheSinkDid()
    {
        final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap("ab\ncd\n".getBytes(StandardCharsets.US_ASCII));
        final StringBuilder seen = new StringBuilder();
        new LineFraming(8).decode(buffer, message ->
        {
            seen.append((char)message.get(message.position()));
            message.position(0).limit(1); // the handler may wreck the bounds
            return true;
        });
        assertThat(seen.toString()).isEqualTo("ac");
        assertThat(buffer.hasRemaining()).isFalse();
    }

    @Test
    void refusesANonPositiveMaximum()
    {
        assertThatThrownBy(() -> new LineFraming(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
