package io.celer.websocket.internal;

import java.nio.ByteBuffer;

/**
 * Checks that bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF), streaming: a sequence may be split anywhere across calls, and the first invalid byte is reported
 * at once, without waiting for the end of the message.
 *
 * <p>A deterministic automaton over byte classes, in the manner of Hoehrmann's decoder; ASCII runs are
 * skipped eight bytes at a time. Hand-written because the JDK's decoders allocate and do not stream.
 */
public final class Utf8Validator
{
    /** The state between whole characters. */
    static final int ACCEPT = 0;
    /** The state after an invalid byte; it is never left. */
    static final int REJECT = 1;

    private static final int CLASSES = 12;
    private static final byte[] CLASS = new byte[256];
    private static final byte[] NEXT = new byte[9 * CLASSES];
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    static
    {
        // Classes: 0 ASCII, 1 80-8F, 2 90-9F, 3 A0-BF, 4 never valid, 5 C2-DF, 6 E0, 7 E1-EC EE-EF, 8 ED,
        // 9 F0, 10 F1-F3, 11 F4.
        for (int b = 0; b < 256; b++)
        {
            final int c;
            if (b < 0x80)
            {
                c = 0;
            }
            else if (b < 0x90)
            {
                c = 1;
            }
            else if (b < 0xA0)
            {
                c = 2;
            }
            else if (b < 0xC0)
            {
                c = 3;
            }
            else if (b < 0xC2 || b > 0xF4)
            {
                c = 4;
            }
            else if (b < 0xE0)
            {
                c = 5;
            }
            else if (b == 0xE0)
            {
                c = 6;
            }
            else if (b == 0xED)
            {
                c = 8;
            }
            else if (b < 0xF0)
            {
                c = 7;
            }
            else if (b == 0xF0)
            {
                c = 9;
            }
            else if (b < 0xF4)
            {
                c = 10;
            }
            else
            {
                c = 11;
            }
            CLASS[b] = (byte)c;
        }
        // States: 0 accept, 1 reject, 2 one continuation due, 3 two due, 4 after E0 (A0-BF then one),
        // 5 after ED (80-9F, no surrogates), 6 three due, 7 after F0 (90-BF), 8 after F4 (80-8F).
        java.util.Arrays.fill(NEXT, (byte)REJECT);
        to(ACCEPT, 0, ACCEPT);
        to(ACCEPT, 5, 2);
        to(ACCEPT, 6, 4);
        to(ACCEPT, 7, 3);
        to(ACCEPT, 8, 5);
        to(ACCEPT, 9, 7);
        to(ACCEPT, 10, 6);
        to(ACCEPT, 11, 8);
        for (int c = 1; c <= 3; c++)
        {
            to(2, c, ACCEPT);
            to(3, c, 2);
            to(6, c, 3);
        }
        to(4, 3, 2);
        to(5, 1, 2);
        to(5, 2, 2);
        to(7, 2, 3);
        to(7, 3, 3);
        to(8, 1, 3);
    }

    private static void to(final int state, final int byteClass, final int next)
    {
        NEXT[state * CLASSES + byteClass] = (byte)next;
    }

    private int state = ACCEPT;

    /**
     * A validator at the start of a text.
     */
    public Utf8Validator()
    {
    }

    /**
     * Starts a new text: forgets any partial character.
     */
    public void reset()
    {
        state = ACCEPT;
    }

    /**
     * Feeds one byte.
     *
     * @param b the byte.
     * @return false once the bytes so far cannot be the start of valid UTF-8.
     */
    public boolean update(final byte b)
    {
        state = NEXT[state * CLASSES + CLASS[b & 0xFF]];
        return state != REJECT;
    }

    /**
     * Feeds bytes between absolute indexes of a buffer, without moving its position.
     *
     * @param buffer the bytes.
     * @param from   first index.
     * @param to     index after the last.
     * @return false at the first byte that makes the text invalid (the rest is not read).
     */
    public boolean update(final ByteBuffer buffer, final int from, final int to)
    {
        int s = state;
        int i = from;
        while (i < to)
        {
            if (s == ACCEPT)
            {
                // ASCII dominates real text: skip it a word at a time; byte order does not matter here.
                while (i + 8 <= to && (buffer.getLong(i) & HIGH_BITS) == 0)
                {
                    i += 8;
                }
                if (i == to)
                {
                    break;
                }
            }
            s = NEXT[s * CLASSES + CLASS[buffer.get(i) & 0xFF]];
            if (s == REJECT)
            {
                state = REJECT;
                return false;
            }
            i++;
        }
        state = s;
        return true;
    }

    /**
     * Feeds the bytes between a buffer's position and limit, without moving its position.
     *
     * @param buffer the bytes.
     * @return false at the first byte that makes the text invalid.
     */
    public boolean update(final ByteBuffer buffer)
    {
        return update(buffer, buffer.position(), buffer.limit());
    }

    /**
     * Feeds part of an array.
     *
     * @param bytes  the array.
     * @param offset first byte.
     * @param length bytes.
     * @return false at the first byte that makes the text invalid.
     */
    public boolean update(final byte[] bytes, final int offset, final int length)
    {
        int s = state;
        for (int i = offset, end = offset + length; i < end; i++)
        {
            s = NEXT[s * CLASSES + CLASS[bytes[i] & 0xFF]];
            if (s == REJECT)
            {
                state = REJECT;
                return false;
            }
        }
        state = s;
        return true;
    }

    /**
     * Whether the bytes so far are valid and end on a whole character, as a finished text must.
     *
     * @return true when the text may end here.
     */
    public boolean isComplete()
    {
        return state == ACCEPT;
    }

    /**
     * Whether an invalid byte was seen since the last reset.
     *
     * @return true once invalid.
     */
    public boolean isInvalid()
    {
        return state == REJECT;
    }

    /**
     * Whether a whole buffer region is valid, complete UTF-8; a convenience for close reasons and tests.
     *
     * @param buffer the bytes.
     * @param from   first index.
     * @param to     index after the last.
     * @return true when valid and complete.
     */
    public boolean isValid(final ByteBuffer buffer, final int from, final int to)
    {
        reset();
        final boolean valid = update(buffer, from, to) && isComplete();
        reset();
        return valid;
    }
}
