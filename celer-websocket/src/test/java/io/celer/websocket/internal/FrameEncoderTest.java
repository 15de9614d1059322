package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import io.celer.websocket.CloseCode;

/**
 * The encoder writes RFC 6455's examples byte for byte, masks a client's frames with fresh keys, and its frames
 * decode back to what was sent.
 */
class FrameEncoderTest
{
    private static String hex(final ByteBuffer out)
    {
        final byte[] bytes = new byte[out.position()];
        out.get(0, bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Test
    void rfcServerFrames()
    {
        final FrameEncoder encoder = new FrameEncoder();
        final ByteBuffer out = ByteBuffer.allocate(70_000);
        assertThat(encoder.encode(out, Opcode.TEXT, true, "Hello")).isTrue();
        assertThat(hex(out)).isEqualTo("810548656c6c6f");

        out.clear();
        encoder.encode(out, Opcode.TEXT, false, "Hel");
        encoder.encode(out, Opcode.CONTINUATION, true, "lo");
        assertThat(hex(out)).isEqualTo("010348656c80026c6f");

        out.clear();
        encoder.encode(out, Opcode.PING, true, false, ByteBuffer.wrap("Hello".getBytes(StandardCharsets.US_ASCII)));
        assertThat(hex(out)).isEqualTo("890548656c6c6f");

        out.clear();
        encoder.encode(out, Opcode.BINARY, true, false, ByteBuffer.allocate(256));
        assertThat(hex(out)).startsWith("827e0100").hasSize(2 * (4 + 256));

        out.clear();
        encoder.encode(out, Opcode.BINARY, true, false, ByteBuffer.allocateDirect(65536));
        assertThat(hex(out)).startsWith("827f0000000000010000").hasSize(2 * (10 + 65536));
    }

    @Test
    void rfcMaskedHelloWithTheRfcsKey()
    {
        final ByteBuffer payload = ByteBuffer.wrap("Hello".getBytes(StandardCharsets.US_ASCII));
        final ByteBuffer masked = ByteBuffer.allocate(16);
        Masking.maskCopy(payload, 0, 5, masked, 0, 0x37fa213d);
        assertThat(HexFormat.of().formatHex(masked.array(), 0, 5)).isEqualTo("7f9f4d5158");
        Masking.maskInPlace(masked, 0, 5, 0x37fa213d);
        assertThat(new String(masked.array(), 0, 5, StandardCharsets.US_ASCII)).isEqualTo("Hello");

        final ByteBuffer out = ByteBuffer.allocate(64);
        out.put(14, payload, 0, 5);
        final int start = new FrameEncoder(new MaskKeys(9)).frameInPlace(out, 14, 5, Opcode.TEXT, true, false);
        assertThat(start).isEqualTo(8);
        assertThat(out.get(start) & 0xFF).isEqualTo(0x81);
        assertThat(out.get(start + 1) & 0xFF).isEqualTo(0x85);
        final ByteBuffer unmasked = ByteBuffer.allocate(5);
        Masking.maskCopy(out, 14, 5, unmasked, 0, out.getInt(start + 2));
        assertThat(unmasked.array()).isEqualTo(payload.array());
    }

    @Test
    void maskingAtEveryOffsetAndLengthMatchesBytewiseXor()
    {
        final MaskKeys keys = new MaskKeys(3);
        for (int length = 0; length < 40; length++)
        {
            for (int offset = 0; offset < 4; offset++)
            {
                final int key = keys.nextKey();
                final ByteBuffer src = ByteBuffer.allocateDirect(64);
                final ByteBuffer dst = ByteBuffer.allocate(64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < 64; i++)
                {
                    src.put(i, (byte)(i * 13 + length));
                }
                Masking.maskCopy(src, 5, length, dst, 3, Masking.rotate(key, offset));
                for (int i = 0; i < length; i++)
                {
                    final int keyByte = key >>> (24 - 8 * ((offset + i) & 3));
                    assertThat(dst.get(3 + i)).isEqualTo((byte)(src.get(5 + i) ^ keyByte));
                }
                Masking.maskInPlace(src, 5, 5 + length, Masking.rotate(key, offset));
                for (int i = 0; i < length; i++)
                {
                    assertThat(src.get(5 + i)).isEqualTo(dst.get(3 + i));
                }
            }
        }
    }

    @Test
    void clientFramesAreMaskedWithAFreshKeyEachAndDecodeOnAServer()
    {
        final FrameEncoder client = new FrameEncoder(new MaskKeys(42));
        final ByteBuffer out = ByteBuffer.allocateDirect(4096);
        final ByteBuffer payload = ByteBuffer.allocate(300);
        for (int i = 0; i < 300; i++)
        {
            payload.put(i, (byte)i);
        }
        client.encode(out, Opcode.BINARY, true, false, payload.duplicate());
        client.encode(out, Opcode.BINARY, true, false, payload.duplicate());
        client.encode(out, Opcode.TEXT, false, "caf\u00e9 \uD83D\uDE00 \uD800x");
        client.encode(out, Opcode.CONTINUATION, true, "!");
        client.encodeClose(out, 1000, "bye");
        final int first = 4;
        final int second = 4 + 4 + 300 + 4;
        assertThat(out.get(1) & 0x80).as("mask bit").isEqualTo(0x80);
        assertThat(out.getInt(first)).as("keys differ per frame").isNotEqualTo(out.getInt(second));
        assertThat(out.get(first + 4)).as("payload masked on the wire").isNotEqualTo(payload.get(0));

        out.flip();
        final RecordingFrameListener listener = new RecordingFrameListener();
        assertThat(new FrameDecoder(true, 1000, 1000).decode(out, listener)).isZero();
        final String bytes = HexFormat.of().formatHex(payload.array());
        assertThat(listener.frames).containsExactly(
            "data op=2 fin=true rsv1=false len=300 " + bytes, "data op=2 fin=true rsv1=false len=300 " + bytes,
            "data op=1 fin=false rsv1=false len=15 " + HexFormat.of().formatHex(
                "caf\u00e9 \uD83D\uDE00 \uFFFDx".getBytes(StandardCharsets.UTF_8)),
            "data op=0 fin=true rsv1=false len=1 21", "control op=8 03e8627965");
        assertThat(out.hasRemaining()).isFalse();
    }

    @Test
    void writesAWholeFrameOrNothing()
    {
        final FrameEncoder encoder = new FrameEncoder(new MaskKeys(1));
        final ByteBuffer out = ByteBuffer.allocate(10);
        final ByteBuffer payload = ByteBuffer.allocate(5);
        assertThat(encoder.encode(out, Opcode.BINARY, true, false, payload)).isFalse();
        assertThat(out.position()).isZero();
        assertThat(payload.position()).isZero();
        assertThat(encoder.encode(out, Opcode.TEXT, true, "abcde")).isFalse();
        assertThat(encoder.encodeClose(out, 1000, "abc")).isFalse();
        assertThat(out.position()).isZero();
        assertThat(encoder.encodeClose(out, CloseCode.NO_STATUS, "")).isTrue();
        assertThat(out.position()).isEqualTo(6);
    }

    @Test
    void refusesWhatMayNotBeSent()
    {
        final FrameEncoder encoder = new FrameEncoder();
        final ByteBuffer out = ByteBuffer.allocate(1000);
        assertThatThrownBy(() -> encoder.encodeClose(out, 1006, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> encoder.encodeClose(out, 1000, "x".repeat(124)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> encoder.encode(out, Opcode.PING, true, false, ByteBuffer.allocate(126)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> encoder.encode(out, Opcode.PONG, false, "")).isInstanceOf(IllegalArgumentException.class);
        assertThat(encoder.encodeClose(out, 1000, "x".repeat(123))).isTrue();
    }

    @Test
    void utf8MatchesTheJdkForWellFormedText()
    {
        final String text = "a\u00ff\u0800\uffff\uD800\uDC00\uDBFF\uDFFF z";
        final ByteBuffer out = ByteBuffer.allocate(64);
        final int end = FrameEncoder.writeUtf8(text, out, 0);
        assertThat(end).isEqualTo(FrameEncoder.utf8Length(text));
        final byte[] bytes = new byte[end];
        out.get(0, bytes);
        assertThat(bytes).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    }
}
