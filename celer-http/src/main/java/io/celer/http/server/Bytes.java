package io.celer.http.server;

import java.nio.ByteBuffer;

/**
 * Moves bytes inside one buffer, for de-chunking a body in place; the regions may overlap. Byte loops, since the
 * JDK's bulk copies between a buffer and itself do not promise overlap-safe order.
 */
final class Bytes
{
    private Bytes()
    {
    }

    /** Copies toward lower indexes ({@code to <= from}), first byte first. */
    static void moveDown(final ByteBuffer buffer, final int from, final int to, final int length)
    {
        if (from != to)
        {
            for (int i = 0; i < length; i++)
            {
                buffer.put(to + i, buffer.get(from + i));
            }
        }
    }

    /** Copies toward higher indexes ({@code to >= from}), last byte first. */
    static void moveUp(final ByteBuffer buffer, final int from, final int to, final int length)
    {
        for (int i = length - 1; i >= 0; i--)
        {
            buffer.put(to + i, buffer.get(from + i));
        }
    }
}
