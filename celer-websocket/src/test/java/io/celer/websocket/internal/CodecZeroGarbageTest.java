package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.celer.websocket.CloseCode;
import io.celer.websocket.NoAllocation;

/**
 * After warm-up, encoding, decoding, unmasking and validating allocate nothing on the current thread: client
 * frames to a server and server frames to a client, text and binary, whole and fragmented with a control frame
 * between the fragments; and so does permessage-deflate's compression through the JDK.
 */
class CodecZeroGarbageTest
{
    private static final int WARM_UP = 50_000;
    private static final int MEASURED = 20_000;

    /**
     * Validates text, copies payload into a reassembly buffer and counts messages, as a session would.
     */
    private static final class Sink implements FrameListener
    {
        final Utf8Validator utf8 = new Utf8Validator();
        final ByteBuffer message = ByteBuffer.allocateDirect(4096);
        boolean text;
        boolean fin;
        long messages;
        long bytes;
        long controls;

        @Override
        public int onDataFrame(final int opcode, final boolean fin, final boolean rsv1, final long payloadLength)
        {
            if (opcode != Opcode.CONTINUATION)
            {
                text = opcode == Opcode.TEXT;
                utf8.reset();
                message.clear();
            }
            this.fin = fin;
            return CONTINUE;
        }

        @Override
        public int onPayload(final ByteBuffer payload, final boolean frameEnd)
        {
            if (text && !utf8.update(payload))
            {
                return CloseCode.INVALID_PAYLOAD;
            }
            message.put(payload);
            if (frameEnd && fin)
            {
                if (text && !utf8.isComplete())
                {
                    return CloseCode.INVALID_PAYLOAD;
                }
                messages++;
                bytes += message.position();
            }
            return CONTINUE;
        }

        @Override
        public int onControlFrame(final int opcode, final ByteBuffer payload)
        {
            controls++;
            return CONTINUE;
        }
    }

    private static final String TEXT = "Gr\u00fc\u00dfe, \u4e16\u754c \uD83D\uDE00 " + "plain ascii text ".repeat(20);

    private static void encodeMessages(final FrameEncoder encoder, final ByteBuffer wire, final ByteBuffer binary,
        final ByteBuffer ping)
    {
        encoder.encode(wire, Opcode.TEXT, true, TEXT);
        encoder.encode(wire, Opcode.BINARY, true, false, binary.clear());
        encoder.encode(wire, Opcode.TEXT, false, TEXT);
        encoder.encode(wire, Opcode.PING, true, false, ping.clear());
        encoder.encode(wire, Opcode.CONTINUATION, true, TEXT);
        encoder.encode(wire, Opcode.BINARY, false, false, binary.clear().limit(100));
        encoder.encode(wire, Opcode.CONTINUATION, false, false, binary.clear().position(100).limit(600));
        encoder.encode(wire, Opcode.CONTINUATION, true, false, binary.clear().position(600));
    }

    @Test
    void clientToServerAndServerToClientFramesAllocateNothing() throws Exception
    {
        final FrameEncoder clientEncoder = new FrameEncoder(new MaskKeys(11));
        final FrameEncoder serverEncoder = new FrameEncoder();
        final FrameDecoder serverDecoder = new FrameDecoder(true, 1 << 16, 1 << 16);
        final FrameDecoder clientDecoder = new FrameDecoder(false, 1 << 16, 1 << 16);
        final Sink server = new Sink();
        final Sink client = new Sink();
        final ByteBuffer wire = ByteBuffer.allocateDirect(8192);
        final ByteBuffer binary = ByteBuffer.allocateDirect(1000);
        final ByteBuffer ping = ByteBuffer.allocateDirect(16);
        final int[] failures = new int[1];

        final long allocated = NoAllocation.leastAllocated(() ->
        {
            wire.clear();
            encodeMessages(clientEncoder, wire, binary, ping);
            wire.flip();
            failures[0] |= serverDecoder.decode(wire, server);
            wire.clear();
            encodeMessages(serverEncoder, wire, binary, ping);
            // Fed in two reads, the second completing a frame the first cut.
            final int end = wire.position();
            wire.flip().limit(end / 2 + 3);
            failures[0] |= clientDecoder.decode(wire, client);
            wire.limit(end);
            failures[0] |= clientDecoder.decode(wire, client);
        }, WARM_UP, MEASURED);

        assertThat(failures[0]).isZero();
        assertThat(server.messages).isEqualTo(client.messages).isGreaterThanOrEqualTo(4L * (WARM_UP + MEASURED));
        assertThat(server.controls).isEqualTo(server.messages / 4);
        assertThat(server.bytes).isEqualTo(client.bytes);
        assertThat(allocated).as("bytes allocated by %d rounds of 8 frames each way", MEASURED).isZero();
    }

    @Test
    void permessageDeflateThroughTheJdkAllocatesNothing() throws Exception
    {
        final MessageDeflater deflater = new MessageDeflater(-1, false);
        final MessageInflater inflater = new MessageInflater(false);
        final ByteBuffer plain = ByteBuffer.allocateDirect(4096);
        FrameEncoder.writeUtf8(TEXT, plain, 0);
        final int length = FrameEncoder.utf8Length(TEXT);
        final ByteBuffer compressed = ByteBuffer.allocateDirect(4096);
        final ByteBuffer inflated = ByteBuffer.allocateDirect(4096);
        final long[] total = new long[2];

        final long allocated = NoAllocation.leastAllocated(() ->
        {
            plain.clear().limit(length);
            compressed.clear();
            deflater.deflate(plain, compressed);
            compressed.flip();
            inflated.clear();
            inflater.input(compressed);
            while (inflater.inflate(inflated) > 0)
            {
                // drained
            }
            inflater.endOfMessage();
            while (inflater.inflate(inflated) > 0)
            {
                // drained
            }
            inflater.messageDone();
            total[0] += inflated.position();
            total[1]++;
        }, WARM_UP, MEASURED);

        assertThat(total[0]).as("every message inflated whole").isEqualTo(length * total[1]);
        assertThat(allocated).as("bytes allocated by %d deflate-inflate round trips", MEASURED).isZero();
        deflater.close();
        inflater.close();
    }
}
