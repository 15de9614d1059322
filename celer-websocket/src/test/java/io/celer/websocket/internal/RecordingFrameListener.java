package io.celer.websocket.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Records what a decoder delivers, joining each frame's payload chunks, as text lines for assertions.
 */
class RecordingFrameListener implements FrameListener
{
    final List<String> frames = new ArrayList<>();
    private final ByteArrayOutputStream payload = new ByteArrayOutputStream();
    private String header;
    int chunks;

    @Override
    public int onDataFrame(final int opcode, final boolean fin, final boolean rsv1, final long payloadLength)
    {
        header = "data op=" + opcode + " fin=" + fin + " rsv1=" + rsv1 + " len=" + payloadLength;
        return CONTINUE;
    }

    @Override
    public int onPayload(final ByteBuffer chunk, final boolean frameEnd)
    {
        chunks++;
        while (chunk.hasRemaining())
        {
            payload.write(chunk.get());
        }
        if (frameEnd)
        {
            frames.add(header + " " + HexFormat.of().formatHex(payload.toByteArray()));
            payload.reset();
        }
        return CONTINUE;
    }

    @Override
    public int onControlFrame(final int opcode, final ByteBuffer chunk)
    {
        final byte[] bytes = new byte[chunk.remaining()];
        chunk.get(bytes);
        frames.add("control op=" + opcode + " " + HexFormat.of().formatHex(bytes));
        return CONTINUE;
    }

    /**
     * Feeds bytes through a read buffer of the given capacity the way a raw-framed connection does: appended,
     * decoded, the rest compacted for the next read.
     *
     * @return the decoder's last result.
     */
    static int feed(final FrameDecoder decoder, final FrameListener listener, final byte[] bytes, final int readSize,
        final int capacity)
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(capacity);
        int offset = 0;
        int result = 0;
        while (offset < bytes.length)
        {
            final int n = Math.min(Math.min(readSize, buffer.remaining()), bytes.length - offset);
            if (n == 0)
            {
                throw new AssertionError("read buffer full at " + offset);
            }
            buffer.put(bytes, offset, n);
            offset += n;
            buffer.flip();
            result = decoder.decode(buffer, listener);
            if (result != 0)
            {
                return result;
            }
            buffer.compact();
        }
        return result;
    }
}
