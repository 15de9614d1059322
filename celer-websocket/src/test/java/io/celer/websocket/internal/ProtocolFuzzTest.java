package io.celer.websocket.internal;

import java.nio.ByteBuffer;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.celer.websocket.CloseCode;

/**
 * Fuzzes the frame decoder, as a server and as a client, fed through a small compacting read buffer in
 * fuzzer-chosen reads, and the UTF-8 validator against the JDK's decoder split at a fuzzer-chosen byte. No
 * exception may escape, and every failure must be a close code a receiver may send for it.
 *
 * <p>One fuzz test, as Jazzer fuzzes one per JVM; {@code mvn verify} runs it in its own JVM for about 20 seconds
 * (and without {@code JAZZER_FUZZ}, against its stored inputs only).
 */
class ProtocolFuzzTest
{
    /**
     * Checks what a session would: text is valid UTF-8 across chunks and frames, close bodies are valid.
     */
    private static final class CheckingListener implements FrameListener
    {
        private final Utf8Validator utf8 = new Utf8Validator();
        private final Utf8Validator reason = new Utf8Validator();
        private boolean text;
        private boolean fin;
        private long frameBytes;
        private long frameLength;

        @Override
        public int onDataFrame(final int opcode, final boolean fin, final boolean rsv1, final long payloadLength)
        {
            if (opcode != Opcode.CONTINUATION)
            {
                text = opcode == Opcode.TEXT && !rsv1;
                utf8.reset();
            }
            this.fin = fin;
            frameLength = payloadLength;
            frameBytes = 0;
            return CONTINUE;
        }

        @Override
        public int onPayload(final ByteBuffer payload, final boolean frameEnd)
        {
            frameBytes += payload.remaining();
            if (frameBytes > frameLength || frameEnd != (frameBytes == frameLength))
            {
                throw new IllegalStateException("payload chunks do not add up to the frame's length");
            }
            if (text && (!utf8.update(payload) || frameEnd && fin && !utf8.isComplete()))
            {
                return CloseCode.INVALID_PAYLOAD;
            }
            payload.position(payload.limit());
            return CONTINUE;
        }

        @Override
        public int onControlFrame(final int opcode, final ByteBuffer payload)
        {
            if (payload.remaining() > 125)
            {
                throw new IllegalStateException("control frame of " + payload.remaining() + " bytes");
            }
            if (opcode == Opcode.CLOSE)
            {
                final int invalid = CloseHandshake.check(payload, reason);
                return invalid != 0 ? invalid : STOP;
            }
            return CONTINUE;
        }
    }

    @FuzzTest(maxDuration = "20s")
    void decoderAndValidatorNeverThrowAndFailOnlyWithCloseCodes(final FuzzedDataProvider data)
    {
        final boolean server = data.consumeBoolean();
        final boolean rsv1 = data.consumeBoolean();
        final int readSize = data.consumeInt(1, 64);
        final int split = data.consumeInt(0, 1 << 16);
        final byte[] bytes = data.consumeRemainingAsBytes();

        final FrameDecoder decoder = new FrameDecoder(server, 300, 1000).rsv1Allowed(rsv1);
        final CheckingListener listener = new CheckingListener();
        final ByteBuffer buffer = ByteBuffer.allocateDirect(160);
        int offset = 0;
        int result = 0;
        while (offset < bytes.length && result == 0)
        {
            final int n = Math.min(Math.min(readSize, buffer.remaining()), bytes.length - offset);
            buffer.put(bytes, offset, n);
            offset += n;
            buffer.flip();
            result = decoder.decode(buffer, listener);
            if (buffer.position() == 0 && buffer.limit() == buffer.capacity() && result == 0)
            {
                // A buffer of 160 holds any header and control frame, so a full one must have been consumed.
                throw new IllegalStateException("decoder stalled on a full read buffer");
            }
            buffer.compact();
        }
        if (result != 0 && result != FrameListener.STOP && result != CloseCode.PROTOCOL_ERROR &&
            result != CloseCode.INVALID_PAYLOAD && result != CloseCode.MESSAGE_TOO_BIG)
        {
            throw new IllegalStateException("unexpected result " + result);
        }

        final Utf8Validator validator = new Utf8Validator();
        final int at = Math.min(split, bytes.length);
        final ByteBuffer whole = ByteBuffer.wrap(bytes);
        final boolean valid = validator.update(whole, 0, at) && validator.update(whole, at, bytes.length) &&
            validator.isComplete();
        if (valid != Utf8ValidatorTest.jdkAccepts(bytes))
        {
            throw new IllegalStateException("validator and JDK disagree: " + java.util.HexFormat.of().formatHex(bytes));
        }
    }
}
