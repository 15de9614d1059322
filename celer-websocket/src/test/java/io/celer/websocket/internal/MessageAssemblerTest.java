package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * The reassembly buffer: made at the first message, kept at its initial size, and let go after a message that
 * needed more, so that one large message does not cost a connection its memory for life.
 */
class MessageAssemblerTest
{
    private final List<Integer> received = new ArrayList<>();
    private final MessageAssembler assembler = new MessageAssembler(null, new WebSocketHandler()
    {
        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            received.add(message.remaining());
        }
    }, new WebSocketConfig().initialMessageBufferSize(1024));

    private void message(final int length, final int chunk)
    {
        assembler.begin(false);
        for (int sent = 0; sent < length; sent += chunk)
        {
            final int n = Math.min(chunk, length - sent);
            assertThat(assembler.deliver(ByteBuffer.allocate(n), sent + n == length)).isEqualTo(FrameListener.CONTINUE);
        }
    }

    @Test
    void aLargeMessagesBufferIsLetGoOnceDelivered()
    {
        assertThat(assembler.bufferCapacity()).as("none before the first message").isZero();
        message(500, 100);
        assertThat(assembler.bufferCapacity()).as("the initial size, kept").isEqualTo(1024);

        message(100_000, 4096);
        assertThat(received).containsExactly(500, 100_000);
        assertThat(assembler.bufferCapacity()).as("the large buffer let go").isZero();

        message(700, 700);
        assertThat(assembler.bufferCapacity()).as("a whole message needs none").isZero();
        message(700, 350);
        assertThat(assembler.bufferCapacity()).as("back to the initial size").isEqualTo(1024);
        assertThat(received).containsExactly(500, 100_000, 700, 700);
    }

    @Test
    void aMessageInOneChunkIsHandedOverInPlaceWithoutABuffer()
    {
        final List<ByteBuffer> seen = new ArrayList<>();
        final MessageAssembler inPlace = new MessageAssembler(null, new WebSocketHandler()
        {
            @Override
            public void binary(final WebSocket socket, final ByteBuffer message)
            {
                seen.add(message);
            }
        }, new WebSocketConfig());
        final ByteBuffer chunk = ByteBuffer.allocate(64);
        inPlace.begin(false);
        assertThat(inPlace.deliver(chunk, true)).isEqualTo(FrameListener.CONTINUE);
        assertThat(seen).containsExactly(chunk);
        assertThat(inPlace.bufferCapacity()).isZero();
    }
}
