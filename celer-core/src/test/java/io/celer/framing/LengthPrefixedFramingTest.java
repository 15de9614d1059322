package io.celer.framing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class LengthPrefixedFramingTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void roundTripsMessagesWhetherCoalescedOrDribbled(final int header)
    {
        final String[] messages = {"", "a", "hello", "x".repeat(200)};
        final byte[] wire = Frames.encode(new LengthPrefixedFraming(header, 255), messages);
        assertThat(new Frames(new LengthPrefixedFraming(header, 255), 1024).read(wire).messages())
            .containsExactly(messages);
        assertThat(new Frames(new LengthPrefixedFraming(header, 255), 1024).dribble(wire).messages())
            .containsExactly(messages);
    }

    @Test
    void readsTheLengthAsUnsignedBigEndian()
    {
        final Frames frames = new Frames(new LengthPrefixedFraming(2, 300), 1024);
        final byte[] wire = new byte[2 + 256];
        wire[0] = 1; // 0x0100 = 256
        frames.read(wire);
        assertThat(frames.messages()).hasSize(1);
        assertThat(frames.messages().get(0)).hasSize(256);
    }

    @Test
    void rejectsALengthOverTheMaximumBeforeItsPayloadArrives()
    {
        final Frames frames = new Frames(new LengthPrefixedFraming(4, 100), 1024);
        assertThatThrownBy(() -> frames.read(new byte[] {0, 0, 0, 101}))
            .isInstanceOf(FramingException.class)
            .hasMessage("message of 101 bytes exceeds the maximum of 100");
    }

    @Test
    void rejectsANegativeLookingFourByteLength()
    {
        final Frames frames = new Frames(new LengthPrefixedFraming(4, 100), 1024);
        assertThatThrownBy(() -> frames.read(new byte[] {(byte)0xFF, 0, 0, 0}))
            .isInstanceOf(FramingException.class);
    }

    @Test
    void refusesToWriteAMessageOverTheMaximum()
    {
        assertThatThrownBy(() -> new LengthPrefixedFraming(1, 10).frameLength(11))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesAMaximumTheHeaderCannotCarry()
    {
        assertThatThrownBy(() -> new LengthPrefixedFraming(1, 256)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LengthPrefixedFraming(3, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
