package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import io.celer.websocket.CloseCode;
import io.celer.websocket.WebSocket;

/**
 * Decodes WebSocket frames (RFC 6455 section 5) from a read buffer that may end anywhere, checking every rule
 * a receiver must: masking by role, reserved bits and opcodes, control frame size and fragmentation, the order
 * of fragments, minimal and 63-bit lengths, and the configured frame and message size limits.
 *
 * <p>Control frames are delivered whole (they are at most 131 bytes on the wire); data frames are delivered as
 * their payload arrives, so a frame larger than the read buffer streams through it. Payloads are unmasked in
 * place in the read buffer. A broken rule yields its close code, after which the decoder consumes nothing.
 * One instance serves one connection at a time on its reactor thread; it allocates nothing.
 */
public final class FrameDecoder
{
    private static final int HEADER = 0;
    private static final int PAYLOAD = 1;
    private static final int DONE = 2;
    private static final int NEED_MORE = Integer.MIN_VALUE;

    private boolean server;
    private long maxFrameLength;
    private long maxMessageLength;
    private boolean rsv1Allowed;

    // A byte and a short: a decoder is held through a frame or a message in parts, and a close code fits in 16 bits.
    private byte state = HEADER;
    private short failure;
    private boolean inMessage;
    private long messageLength;
    private boolean masked;
    private int maskKey;
    private long payloadRemaining;
    private long payloadOffset;
    /** Payload bytes at the front of the next chunk already unmasked, left unconsumed by a pause. */
    private int unmaskedAhead;
    private boolean frameFin;

    /**
     * A decoder for one side of a connection.
     *
     * @param server           true on a server, which requires masked frames; false on a client, which refuses them.
     * @param maxFrameLength   the largest payload of one frame; larger fails with 1009.
     * @param maxMessageLength the largest sum of a message's frame payloads; larger fails with 1009.
     */
    public FrameDecoder(final boolean server, final long maxFrameLength, final long maxMessageLength)
    {
        limits(server, maxFrameLength, maxMessageLength);
    }

    /**
     * Sets the role and the limits, for a decoder lent to another session; between frames only.
     *
     * @param server           true on a server, which requires masked frames; false on a client, which refuses them.
     * @param maxFrameLength   the largest payload of one frame; larger fails with 1009.
     * @param maxMessageLength the largest sum of a message's frame payloads; larger fails with 1009.
     * @return this.
     */
    public FrameDecoder limits(final boolean server, final long maxFrameLength, final long maxMessageLength)
    {
        if (maxFrameLength < 125 || maxMessageLength < 1)
        {
            throw new IllegalArgumentException("limits too small: frame " + maxFrameLength + ", message " +
                maxMessageLength);
        }
        this.server = server;
        this.maxFrameLength = maxFrameLength;
        this.maxMessageLength = maxMessageLength;
        return this;
    }

    /**
     * Whether it holds nothing of its connection: at the start of a frame, in no fragmented message, not failed.
     *
     * @return true between messages.
     */
    public boolean isBetweenMessages()
    {
        return state == HEADER && !inMessage && failure == 0;
    }

    /**
     * Allows RSV1 on a message's first frame, as a negotiated permessage-deflate does.
     *
     * @param allowed whether the extension is on.
     * @return this.
     */
    public FrameDecoder rsv1Allowed(final boolean allowed)
    {
        this.rsv1Allowed = allowed;
        return this;
    }

    /**
     * Decodes what it can between the buffer's position and limit; the position ends at the first byte not
     * consumed (a partial header or control frame waits for more).
     *
     * @param buffer   the read buffer, flipped; payloads in it are unmasked in place.
     * @param listener receives frames.
     * @return 0 when all that can be decoded was, {@link FrameListener#STOP} when the listener stopped,
     *         {@link FrameListener#PAUSE} when it paused (the next call goes on from the buffer's position), or the
     *         close code of a broken rule (also on every later call).
     */
    public int decode(final ByteBuffer buffer, final FrameListener listener)
    {
        while (state != DONE)
        {
            final int result = state == HEADER ? header(buffer, listener) : payload(buffer, listener);
            if (result == NEED_MORE)
            {
                return 0;
            }
            if (result > 0)
            {
                state = DONE;
                failure = (short)result;
                return result;
            }
            if (result == FrameListener.PAUSE)
            {
                return result;
            }
            if (result == FrameListener.STOP)
            {
                state = DONE;
                failure = FrameListener.STOP;
                return result;
            }
        }
        return failure;
    }

    /**
     * The close code of the failure, if any.
     *
     * @return 0 while healthy, the close code once failed, {@link FrameListener#STOP} once stopped.
     */
    public int failure()
    {
        return failure;
    }

    /**
     * Starts over, for another connection.
     */
    public void reset()
    {
        state = HEADER;
        failure = 0;
        inMessage = false;
        messageLength = 0;
        payloadRemaining = 0;
        unmaskedAhead = 0;
    }

    private int header(final ByteBuffer buffer, final FrameListener listener)
    {
        final int start = buffer.position();
        final int available = buffer.limit() - start;
        if (available < 2)
        {
            return NEED_MORE;
        }
        final int b0 = buffer.get(start) & 0xFF;
        final int b1 = buffer.get(start + 1) & 0xFF;
        final boolean fin = (b0 & 0x80) != 0;
        final boolean rsv1 = (b0 & 0x40) != 0;
        final int opcode = b0 & 0x0F;
        final boolean isMasked = (b1 & 0x80) != 0;
        final int length7 = b1 & 0x7F;

        if ((b0 & 0x30) != 0 || !Opcode.isKnown(opcode) || isMasked != server)
        {
            return CloseCode.PROTOCOL_ERROR;
        }
        final boolean control = Opcode.isControl(opcode);
        if (control && (!fin || length7 > 125 || rsv1))
        {
            return CloseCode.PROTOCOL_ERROR;
        }
        if (!control && rsv1 && (!rsv1Allowed || opcode == Opcode.CONTINUATION))
        {
            return CloseCode.PROTOCOL_ERROR;
        }
        if (opcode == Opcode.CONTINUATION ? !inMessage : !control && inMessage)
        {
            return CloseCode.PROTOCOL_ERROR;
        }

        final int lengthBytes = length7 == 127 ? 8 : length7 == 126 ? 2 : 0;
        final int headerLength = 2 + lengthBytes + (isMasked ? 4 : 0);
        if (available < headerLength)
        {
            return NEED_MORE;
        }
        final long length;
        if (lengthBytes == 2)
        {
            length = (buffer.get(start + 2) & 0xFF) << 8 | (buffer.get(start + 3) & 0xFF);
            if (length < 126)
            {
                return CloseCode.PROTOCOL_ERROR;
            }
        }
        else if (lengthBytes == 8)
        {
            length = getLongBigEndian(buffer, start + 2);
            if (length < 0 || length <= 0xFFFF)
            {
                return CloseCode.PROTOCOL_ERROR; // the most significant bit must be 0; the length minimal
            }
        }
        else
        {
            length = length7;
        }
        final int key = isMasked ? getIntBigEndian(buffer, start + headerLength - 4) : 0;

        if (control)
        {
            if (available < headerLength + length)
            {
                return NEED_MORE;
            }
            final int from = start + headerLength;
            final int to = from + (int)length;
            if (isMasked)
            {
                Masking.maskInPlace(buffer, from, to, key);
            }
            final int limit = buffer.limit();
            buffer.limit(to).position(from);
            final int result = listener.onControlFrame(opcode, buffer);
            buffer.limit(limit).position(to);
            return result;
        }

        if (length > maxFrameLength)
        {
            return CloseCode.MESSAGE_TOO_BIG;
        }
        final long soFar = opcode == Opcode.CONTINUATION ? messageLength : 0;
        if (length > maxMessageLength - soFar)
        {
            return CloseCode.MESSAGE_TOO_BIG;
        }
        messageLength = soFar + length;
        buffer.position(start + headerLength);
        inMessage = !fin;
        frameFin = fin;
        masked = isMasked;
        maskKey = key;
        payloadRemaining = length;
        payloadOffset = 0;
        unmaskedAhead = 0;
        state = PAYLOAD;
        return listener.onDataFrame(opcode, fin, rsv1, length);
    }

    private int payload(final ByteBuffer buffer, final FrameListener listener)
    {
        final int from = buffer.position();
        final int chunk = (int)Math.min(payloadRemaining, buffer.limit() - from);
        if (chunk == 0 && payloadRemaining > 0)
        {
            return NEED_MORE;
        }
        final int to = from + chunk;
        final int unmasked = Math.min(unmaskedAhead, chunk);
        if (masked && unmasked < chunk)
        {
            Masking.maskInPlace(buffer, from + unmasked, to, Masking.rotate(maskKey, payloadOffset + unmasked));
        }
        unmaskedAhead = 0;
        payloadRemaining -= chunk;
        payloadOffset += chunk;
        final boolean frameEnd = payloadRemaining == 0;
        if (frameEnd)
        {
            state = HEADER;
        }
        final int limit = buffer.limit();
        buffer.limit(to);
        final int result = listener.onPayload(buffer, frameEnd);
        if (result == FrameListener.PAUSE)
        {
            // The rest of the chunk, unmasked already, stays in the buffer for the next call.
            final int left = to - buffer.position();
            payloadRemaining += left;
            payloadOffset -= left;
            unmaskedAhead = left;
            state = PAYLOAD;
            buffer.limit(limit);
            return result;
        }
        buffer.limit(limit).position(to);
        if (frameEnd && frameFin)
        {
            messageLength = 0;
        }
        return result;
    }

    private static long getLongBigEndian(final ByteBuffer buffer, final int index)
    {
        return ((long)getIntBigEndian(buffer, index) << 32) | (getIntBigEndian(buffer, index + 4) & 0xFFFF_FFFFL);
    }

    private static int getIntBigEndian(final ByteBuffer buffer, final int index)
    {
        return (buffer.get(index) & 0xFF) << 24 | (buffer.get(index + 1) & 0xFF) << 16 |
            (buffer.get(index + 2) & 0xFF) << 8 | (buffer.get(index + 3) & 0xFF);
    }
}
