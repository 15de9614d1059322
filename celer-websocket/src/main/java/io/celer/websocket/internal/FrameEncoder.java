package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import io.celer.websocket.CloseCode;
import io.celer.websocket.WebSocket;

/**
 * Writes WebSocket frames into a buffer: unmasked on a server, masked with a fresh key per frame on a client
 * (RFC 6455 section 5.3), masking while the payload is copied. Text is encoded to UTF-8 on the way, with no
 * intermediate copy; an unpaired surrogate becomes U+FFFD so that every text frame is valid UTF-8.
 *
 * <p>Each method writes a whole frame or nothing; it allocates nothing. A client's encoder serves one connection;
 * a server's has no state, so one serves any number.
 */
public final class FrameEncoder
{
    /** The longest frame header: 2 bytes, a 64-bit length and a masking key. */
    public static final int MAX_HEADER_LENGTH = 14;
    /** The longest control frame payload. */
    public static final int MAX_CONTROL_PAYLOAD = 125;

    private final MaskKeys keys;

    /**
     * A server's encoder: frames go unmasked.
     */
    public FrameEncoder()
    {
        this.keys = null;
    }

    /**
     * A client's encoder: every frame is masked with the next key.
     *
     * @param keys the key source.
     */
    public FrameEncoder(final MaskKeys keys)
    {
        this.keys = keys;
    }

    /**
     * Whether frames are masked (a client's encoder).
     *
     * @return true on a client.
     */
    public boolean masks()
    {
        return keys != null;
    }

    /**
     * The length of a frame header.
     *
     * @param payloadLength the payload's length.
     * @param masked        whether it carries a key.
     * @return bytes.
     */
    public static int headerLength(final long payloadLength, final boolean masked)
    {
        return (payloadLength < 126 ? 2 : payloadLength <= 0xFFFF ? 4 : 10) + (masked ? 4 : 0);
    }

    /**
     * Writes a frame whose payload is the bytes between the payload's position and limit; on success the
     * payload's position moves to its limit and the output's past the frame.
     *
     * @param out     the output, written from its position.
     * @param opcode  the opcode.
     * @param fin     whether this ends the message.
     * @param rsv1    the compression bit.
     * @param payload the payload.
     * @return false, with nothing written, when the frame does not fit.
     */
    public boolean encode(final ByteBuffer out, final int opcode, final boolean fin, final boolean rsv1,
        final ByteBuffer payload)
    {
        final int length = payload.remaining();
        checkControl(opcode, fin, length);
        final boolean masked = keys != null;
        if (out.remaining() < headerLength(length, masked) + length)
        {
            return false;
        }
        final int key = masked ? keys.nextKey() : 0;
        final int at = writeHeader(out, out.position(), opcode, fin, rsv1, length, masked, key);
        if (masked)
        {
            Masking.maskCopy(payload, payload.position(), length, out, at, key);
        }
        else
        {
            out.put(at, payload, payload.position(), length);
        }
        payload.position(payload.limit());
        out.position(at + length);
        return true;
    }

    /**
     * Writes a frame whose payload is text, encoded to UTF-8.
     *
     * @param out    the output, written from its position.
     * @param opcode {@link Opcode#TEXT}, {@link Opcode#CONTINUATION} or a control opcode.
     * @param fin    whether this ends the message.
     * @param text   the text.
     * @return false, with nothing written, when the frame does not fit.
     */
    public boolean encode(final ByteBuffer out, final int opcode, final boolean fin, final CharSequence text)
    {
        final int length = utf8Length(text);
        checkControl(opcode, fin, length);
        final boolean masked = keys != null;
        if (out.remaining() < headerLength(length, masked) + length)
        {
            return false;
        }
        final int key = masked ? keys.nextKey() : 0;
        final int at = writeHeader(out, out.position(), opcode, fin, false, length, masked, key);
        final int end = writeUtf8(text, out, at);
        if (masked)
        {
            Masking.maskInPlace(out, at, end, key);
        }
        out.position(end);
        return true;
    }

    /**
     * Writes a close frame with a status code and a reason.
     *
     * @param out    the output, written from its position.
     * @param code   a code valid on the wire (see {@link CloseCode#isValidOnWire}), or {@link CloseCode#NO_STATUS}
     *               for a close frame without a body.
     * @param reason the reason, up to 123 bytes of UTF-8; may be empty.
     * @return false, with nothing written, when the frame does not fit.
     * @throws IllegalArgumentException for a code that may not be sent or a reason too long.
     */
    public boolean encodeClose(final ByteBuffer out, final int code, final CharSequence reason)
    {
        final boolean masked = keys != null;
        if (code == CloseCode.NO_STATUS)
        {
            if (out.remaining() < headerLength(0, masked))
            {
                return false;
            }
            out.position(writeHeader(out, out.position(), Opcode.CLOSE, true, false, 0, masked, masked ? keys.nextKey() : 0));
            return true;
        }
        if (!CloseCode.isValidOnWire(code))
        {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        final int length = 2 + utf8Length(reason);
        if (length > MAX_CONTROL_PAYLOAD)
        {
            throw new IllegalArgumentException("close reason longer than 123 bytes");
        }
        if (out.remaining() < headerLength(length, masked) + length)
        {
            return false;
        }
        final int key = masked ? keys.nextKey() : 0;
        final int at = writeHeader(out, out.position(), Opcode.CLOSE, true, false, length, masked, key);
        out.put(at, (byte)(code >>> 8)).put(at + 1, (byte)code);
        final int end = writeUtf8(reason, out, at + 2);
        if (masked)
        {
            Masking.maskInPlace(out, at, end, key);
        }
        out.position(end);
        return true;
    }

    /**
     * Frames a payload already in place: writes the header just before it and masks it in place, for payloads
     * produced straight into the output (compressed ones). Moves nothing.
     *
     * @param buffer        holds the payload.
     * @param payloadStart  the payload's first index; at least {@link #MAX_HEADER_LENGTH}.
     * @param payloadLength the payload's length.
     * @param opcode        the opcode.
     * @param fin           whether this ends the message.
     * @param rsv1          the compression bit.
     * @return the frame's first index.
     */
    public int frameInPlace(final ByteBuffer buffer, final int payloadStart, final int payloadLength,
        final int opcode, final boolean fin, final boolean rsv1)
    {
        checkControl(opcode, fin, payloadLength);
        final boolean masked = keys != null;
        final int start = payloadStart - headerLength(payloadLength, masked);
        final int key = masked ? keys.nextKey() : 0;
        writeHeader(buffer, start, opcode, fin, rsv1, payloadLength, masked, key);
        if (masked)
        {
            Masking.maskInPlace(buffer, payloadStart, payloadStart + payloadLength, key);
        }
        return start;
    }

    private static void checkControl(final int opcode, final boolean fin, final int length)
    {
        if (Opcode.isControl(opcode) && (!fin || length > MAX_CONTROL_PAYLOAD))
        {
            throw new IllegalArgumentException("a control frame is unfragmented and carries at most 125 bytes");
        }
    }

    private static int writeHeader(final ByteBuffer out, final int index, final int opcode, final boolean fin,
        final boolean rsv1, final long length, final boolean masked, final int key)
    {
        int i = index;
        out.put(i++, (byte)((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode));
        final int maskBit = masked ? 0x80 : 0;
        if (length < 126)
        {
            out.put(i++, (byte)(maskBit | length));
        }
        else if (length <= 0xFFFF)
        {
            out.put(i++, (byte)(maskBit | 126));
            out.put(i++, (byte)(length >>> 8));
            out.put(i++, (byte)length);
        }
        else
        {
            out.put(i++, (byte)(maskBit | 127));
            for (int shift = 56; shift >= 0; shift -= 8)
            {
                out.put(i++, (byte)(length >>> shift));
            }
        }
        if (masked)
        {
            out.put(i++, (byte)(key >>> 24));
            out.put(i++, (byte)(key >>> 16));
            out.put(i++, (byte)(key >>> 8));
            out.put(i++, (byte)key);
        }
        return i;
    }

    /**
     * The length of text encoded to UTF-8, an unpaired surrogate counting as U+FFFD.
     *
     * @param text the text.
     * @return bytes.
     */
    public static int utf8Length(final CharSequence text)
    {
        int length = 0;
        final int n = text.length();
        for (int i = 0; i < n; i++)
        {
            final char c = text.charAt(i);
            if (c < 0x80)
            {
                length++;
            }
            else if (c < 0x800)
            {
                length += 2;
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1)))
            {
                length += 4;
                i++;
            }
            else
            {
                length += 3;
            }
        }
        return length;
    }

    /**
     * Encodes text to UTF-8 at an absolute index, an unpaired surrogate becoming U+FFFD.
     *
     * @param text  the text.
     * @param out   the output, with room for {@link #utf8Length} bytes.
     * @param index the first index.
     * @return the index after the last byte written.
     */
    public static int writeUtf8(final CharSequence text, final ByteBuffer out, final int index)
    {
        int i = index;
        final int n = text.length();
        for (int k = 0; k < n; k++)
        {
            final char c = text.charAt(k);
            if (c < 0x80)
            {
                out.put(i++, (byte)c);
            }
            else if (c < 0x800)
            {
                out.put(i++, (byte)(0xC0 | c >>> 6));
                out.put(i++, (byte)(0x80 | c & 0x3F));
            }
            else if (Character.isSurrogate(c))
            {
                if (Character.isHighSurrogate(c) && k + 1 < n && Character.isLowSurrogate(text.charAt(k + 1)))
                {
                    final int cp = Character.toCodePoint(c, text.charAt(++k));
                    out.put(i++, (byte)(0xF0 | cp >>> 18));
                    out.put(i++, (byte)(0x80 | cp >>> 12 & 0x3F));
                    out.put(i++, (byte)(0x80 | cp >>> 6 & 0x3F));
                    out.put(i++, (byte)(0x80 | cp & 0x3F));
                }
                else
                {
                    out.put(i++, (byte)0xEF).put(i++, (byte)0xBF).put(i++, (byte)0xBD);
                }
            }
            else
            {
                out.put(i++, (byte)(0xE0 | c >>> 12));
                out.put(i++, (byte)(0x80 | c >>> 6 & 0x3F));
                out.put(i++, (byte)(0x80 | c & 0x3F));
            }
        }
        return i;
    }
}
