package io.celer.http.server;

import java.nio.charset.StandardCharsets;

import io.celer.http.HttpStatus;

/**
 * The encoded status line of every code, made once, so that starting a response's head copies bytes only.
 */
final class StatusLines
{
    private static final byte[][] LINES = new byte[600][];

    static
    {
        for (int code = 100; code < 600; code++)
        {
            LINES[code] = ("HTTP/1.1 " + code + " " + HttpStatus.reason(code) + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        }
    }

    private StatusLines()
    {
    }

    /**
     * The encoded status line, CRLF included.
     *
     * @param code 100 to 599.
     * @return shared bytes; do not change them.
     * @throws IllegalArgumentException for a code out of range.
     */
    static byte[] of(final int code)
    {
        if (code < 100 || code > 599)
        {
            throw new IllegalArgumentException("status code out of range: " + code);
        }
        return LINES[code];
    }
}
