package io.celer.http;

import java.nio.ByteBuffer;

/**
 * Puts one fuzz input into two buffers: one to parse in a single read, one to parse in two, whose answers the
 * fuzz tests of the server and of the client compare.
 */
public final class FuzzInput
{
    private FuzzInput()
    {
    }

    /**
     * Copies the input, cut to what the buffers hold, from index 0 of each.
     *
     * @param bytes the input.
     * @param a     the buffer read whole.
     * @param b     the buffer read in pieces, as large as a.
     * @return the bytes copied.
     */
    public static int intoBoth(final byte[] bytes, final ByteBuffer a, final ByteBuffer b)
    {
        final int length = Math.min(bytes.length, a.capacity());
        a.clear();
        a.put(bytes, 0, length);
        b.clear();
        b.put(bytes, 0, length);
        return length;
    }
}
