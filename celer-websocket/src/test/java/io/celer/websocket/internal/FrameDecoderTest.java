package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import io.celer.websocket.CloseCode;

/**
 * The decoder reads RFC 6455's examples (section 5.7) however they are split, and fails each broken rule with
 * its close code.
 */
class FrameDecoderTest
{
    private static final String HELLO = "48656c6c6f";

    private static byte[] hex(final String hex)
    {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    @Test
    void rfcSingleFrameUnmaskedTextOnAClient()
    {
        assertThat(decodeEverySplit(false, "81 05 48 65 6c 6c 6f"))
            .containsExactly("data op=1 fin=true rsv1=false len=5 " + HELLO);
    }

    @Test
    void rfcSingleFrameMaskedTextOnAServer()
    {
        assertThat(decodeEverySplit(true, "81 85 37 fa 21 3d 7f 9f 4d 51 58"))
            .containsExactly("data op=1 fin=true rsv1=false len=5 " + HELLO);
    }

    @Test
    void rfcFragmentedUnmaskedText()
    {
        assertThat(decodeEverySplit(false, "01 03 48 65 6c 80 02 6c 6f")).containsExactly(
            "data op=1 fin=false rsv1=false len=3 48656c", "data op=0 fin=true rsv1=false len=2 6c6f");
    }

    @Test
    void rfcPingAndMaskedPong()
    {
        assertThat(decodeEverySplit(false, "89 05 48 65 6c 6c 6f")).containsExactly("control op=9 " + HELLO);
        assertThat(decodeEverySplit(true, "8a 85 37 fa 21 3d 7f 9f 4d 51 58")).containsExactly("control op=10 " + HELLO);
    }

    @Test
    void rfc256And64KiBBinaryWithExtendedLengths()
    {
        final byte[] small = frame("82 7e 01 00", 256);
        final byte[] large = frame("82 7f 00 00 00 00 00 01 00 00", 65536);
        final String smallPayload = HexFormat.of().formatHex(small, 4, small.length);
        final String largePayload = HexFormat.of().formatHex(large, 10, large.length);
        for (final int readSize : new int[] {1, 7, 100, 4096})
        {
            final RecordingFrameListener listener = new RecordingFrameListener();
            final FrameDecoder decoder = new FrameDecoder(false, 1 << 20, 1 << 20);
            assertThat(RecordingFrameListener.feed(decoder, listener, concat(small, large), readSize, 1024)).isZero();
            assertThat(listener.frames).containsExactly("data op=2 fin=true rsv1=false len=256 " + smallPayload,
                "data op=2 fin=true rsv1=false len=65536 " + largePayload);
            assertThat(listener.chunks).as("a 64 KiB frame streams through a 1 KiB read buffer").isGreaterThan(64);
        }
    }

    @Test
    void aListenerThatPausesGetsTheRestOfTheMaskedPayloadUnmaskedOnceFromTheNextCall()
    {
        // "Hello" masked, then a ping: the listener takes two bytes of each payload call and pauses.
        final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(hex("81 85 37 fa 21 3d 7f 9f 4d 51 58 89 80 00 00 00 00"));
        final StringBuilder payload = new StringBuilder();
        final List<String> events = new java.util.ArrayList<>();
        final FrameListener pausing = new FrameListener()
        {
            @Override
            public int onDataFrame(final int opcode, final boolean fin, final boolean rsv1, final long payloadLength)
            {
                events.add("data");
                return CONTINUE;
            }

            @Override
            public int onPayload(final java.nio.ByteBuffer chunk, final boolean frameEnd)
            {
                final int take = Math.min(2, chunk.remaining());
                for (int i = 0; i < take; i++)
                {
                    payload.append((char)chunk.get());
                }
                events.add("payload " + take + (frameEnd ? " end" : ""));
                return chunk.hasRemaining() ? PAUSE : CONTINUE;
            }

            @Override
            public int onControlFrame(final int opcode, final java.nio.ByteBuffer control)
            {
                events.add("control " + opcode);
                return CONTINUE;
            }
        };
        final FrameDecoder decoder = new FrameDecoder(true, 1 << 20, 1 << 20);
        int calls = 0;
        while (buffer.hasRemaining() && calls++ < 10)
        {
            final int result = decoder.decode(buffer, pausing);
            assertThat(result).isIn(0, FrameListener.PAUSE);
            // A reader keeps the unconsumed bytes and moves them to the front: the decoder must not rely on where.
            final java.nio.ByteBuffer moved = java.nio.ByteBuffer.allocate(buffer.remaining() + 3);
            moved.position(3);
            moved.put(buffer).flip().position(3);
            buffer.clear().put(moved).flip();
        }
        assertThat(payload.toString()).isEqualTo("Hello");
        assertThat(events).containsExactly("data", "payload 2 end", "payload 2 end", "payload 1 end", "control 9");
        assertThat(decoder.failure()).isZero();
    }

    @Test
    void controlFramesBetweenFragmentsAndEmptyFrames()
    {
        assertThat(decodeEverySplit(false, "01 01 41 89 00 00 00 8a 01 42 80 01 43 81 00")).containsExactly(
            "data op=1 fin=false rsv1=false len=1 41", "control op=9 ", "data op=0 fin=false rsv1=false len=0 ",
            "control op=10 42", "data op=0 fin=true rsv1=false len=1 43", "data op=1 fin=true rsv1=false len=0 ");
    }

    @Test
    void unmasksLongMaskedPayloadsWordAtATimeAtAnyOffset()
    {
        final byte[] payload = new byte[1000];
        for (int i = 0; i < payload.length; i++)
        {
            payload[i] = (byte)(i * 31);
        }
        final ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(hex("82 fe 03 e8 12 34 56 78"));
        final byte[] key = hex("12345678");
        for (int i = 0; i < payload.length; i++)
        {
            wire.write(payload[i] ^ key[i & 3]);
        }
        for (final int readSize : new int[] {1, 3, 9, 333, 2000})
        {
            final RecordingFrameListener listener = new RecordingFrameListener();
            RecordingFrameListener.feed(new FrameDecoder(true, 4096, 4096), listener, wire.toByteArray(), readSize, 64);
            assertThat(listener.frames).containsExactly(
                "data op=2 fin=true rsv1=false len=1000 " + HexFormat.of().formatHex(payload));
        }
    }

    static Stream<Arguments> violations()
    {
        return Stream.of(
            Arguments.of("unmasked frame to a server", true, "81 00", 1002),
            Arguments.of("masked frame to a client", false, "81 80 00 00 00 00", 1002),
            Arguments.of("RSV1 without an extension", false, "c1 00", 1002),
            Arguments.of("RSV2", false, "a1 00", 1002),
            Arguments.of("RSV3", false, "91 00", 1002),
            Arguments.of("reserved data opcode 3", false, "83 00", 1002),
            Arguments.of("reserved data opcode 7", false, "87 00", 1002),
            Arguments.of("reserved control opcode B", false, "8b 00", 1002),
            Arguments.of("reserved control opcode F", false, "8f 00", 1002),
            Arguments.of("fragmented ping", false, "09 00", 1002),
            Arguments.of("fragmented close", false, "08 00", 1002),
            Arguments.of("ping of 126 bytes", false, "89 7e 00 7e", 1002),
            Arguments.of("continuation without a start", false, "80 00", 1002),
            Arguments.of("text inside a fragmented message", false, "01 00 81 00", 1002),
            Arguments.of("binary inside a fragmented message", false, "02 00 82 00", 1002),
            Arguments.of("non-minimal 16-bit length", false, "82 7e 00 7d", 1002),
            Arguments.of("non-minimal 64-bit length", false, "82 7f 00 00 00 00 00 00 ff ff", 1002),
            Arguments.of("64-bit length with the top bit set", false, "82 7f 80 00 00 00 00 00 00 00", 1002),
            Arguments.of("frame over the limit", false, "82 7f 00 00 00 00 00 10 00 01", 1009),
            Arguments.of("message over the limit", false, "02 7e ff ff" + " 00".repeat(0xffff) + " 80 7f 00 00 00 00 00 0f 00 02", 1009));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("violations")
    void protocolViolationsFailWithTheirCloseCode(final String name, final boolean server, final String frames,
        final int code)
    {
        final byte[] bytes = hex(frames);
        for (final int readSize : new int[] {1, 2, 5, bytes.length})
        {
            final FrameDecoder decoder = new FrameDecoder(server, 1 << 20, 1 << 20);
            final int result = RecordingFrameListener.feed(decoder, new RecordingFrameListener(), bytes, readSize, 1024);
            assertThat(result).as("%s read %d at a time", name, readSize).isEqualTo(code);
            assertThat(decoder.failure()).isEqualTo(code);
            assertThat(decoder.decode(java.nio.ByteBuffer.allocate(4), new RecordingFrameListener()))
                .as("stays failed").isEqualTo(code);
        }
    }

    @Test
    void rsv1IsAllowedOnlyOnTheFirstDataFrameOnceNegotiated()
    {
        final RecordingFrameListener listener = new RecordingFrameListener();
        assertThat(RecordingFrameListener.feed(new FrameDecoder(false, 1000, 1000).rsv1Allowed(true), listener,
            hex("41 01 aa c0 01 bb"), 1, 64)).isEqualTo(1002);
        assertThat(listener.frames).containsExactly("data op=1 fin=false rsv1=true len=1 aa");
        assertThat(RecordingFrameListener.feed(new FrameDecoder(false, 1000, 1000).rsv1Allowed(true),
            new RecordingFrameListener(), hex("c9 00"), 1, 64)).as("never on control frames").isEqualTo(1002);
    }

    @Test
    void aListenerCloseCodeOrStopEndsDecoding()
    {
        final FrameListener failing = new RecordingFrameListener()
        {
            @Override
            public int onPayload(final java.nio.ByteBuffer chunk, final boolean frameEnd)
            {
                return CloseCode.INVALID_PAYLOAD;
            }
        };
        final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(hex("81 01 ff 81 01 41"));
        assertThat(new FrameDecoder(false, 1000, 1000).decode(buffer, failing)).isEqualTo(1007);
        assertThat(buffer.position()).as("the failing frame is consumed, the next is not").isEqualTo(3);
    }

    private static List<String> decodeEverySplit(final boolean server, final String frames)
    {
        final byte[] bytes = hex(frames);
        List<String> first = null;
        for (int readSize = 1; readSize <= bytes.length; readSize++)
        {
            final RecordingFrameListener listener = new RecordingFrameListener();
            assertThat(RecordingFrameListener.feed(new FrameDecoder(server, 1000, 1000), listener, bytes, readSize, 256))
                .isZero();
            if (first == null)
            {
                first = listener.frames;
            }
            assertThat(listener.frames).as("read %d at a time", readSize).isEqualTo(first);
        }
        return first;
    }

    private static byte[] frame(final String header, final int length)
    {
        final byte[] head = hex(header);
        final byte[] frame = new byte[head.length + length];
        System.arraycopy(head, 0, frame, 0, head.length);
        for (int i = 0; i < length; i++)
        {
            frame[head.length + i] = (byte)(i * 7 + 3);
        }
        return frame;
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        final byte[] joined = new byte[a.length + b.length];
        System.arraycopy(a, 0, joined, 0, a.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }
}
