package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * XOR masking of payloads (RFC 6455 section 5.3), in place or while copying, eight bytes at a time.
 */
public final class Masking
{
    private Masking()
    {
    }

    /**
     * The masking key rotated so that its byte at {@code offset % 4} comes first, as a big-endian int.
     *
     * @param key    the 4-byte key, big-endian.
     * @param offset payload bytes masked before.
     * @return the rotated key.
     */
    public static int rotate(final int key, final long offset)
    {
        return Integer.rotateLeft(key, (int)(offset & 3) * 8);
    }

    /**
     * Masks (or unmasks) bytes in place between absolute indexes.
     *
     * @param buffer the bytes.
     * @param from   first index.
     * @param to     index after the last.
     * @param key    the key rotated to {@code from}'s payload offset (see {@link #rotate}).
     */
    public static void maskInPlace(final ByteBuffer buffer, final int from, final int to, final int key)
    {
        final long wide = wide(key, buffer.order());
        int i = from;
        for (; i + 8 <= to; i += 8)
        {
            buffer.putLong(i, buffer.getLong(i) ^ wide);
        }
        for (int k = key; i < to; i++)
        {
            k = Integer.rotateLeft(k, 8);
            // After the rotation the key's next byte sits in the low bits.
            buffer.put(i, (byte)(buffer.get(i) ^ k));
        }
    }

    /**
     * Copies bytes from a source region to a destination index, masking them.
     *
     * @param src     the source.
     * @param srcFrom first source index.
     * @param length  bytes.
     * @param dst     the destination.
     * @param dstFrom first destination index.
     * @param key     the key rotated to the first byte's payload offset.
     */
    public static void maskCopy(
        final ByteBuffer src, final int srcFrom, final int length, final ByteBuffer dst, final int dstFrom, final int key)
    {
        final long srcWide = wide(key, src.order());
        final boolean sameOrder = src.order() == dst.order();
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            final long masked = src.getLong(srcFrom + i) ^ srcWide;
            dst.putLong(dstFrom + i, sameOrder ? masked : Long.reverseBytes(masked));
        }
        for (int k = key; i < length; i++)
        {
            k = Integer.rotateLeft(k, 8);
            dst.put(dstFrom + i, (byte)(src.get(srcFrom + i) ^ k));
        }
    }

    private static long wide(final int key, final ByteOrder order)
    {
        final long big = ((long)key << 32) | (key & 0xFFFF_FFFFL);
        return order == ByteOrder.BIG_ENDIAN ? big : Long.reverseBytes(big);
    }
}
