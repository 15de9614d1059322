package io.celer.bench.http.peer;

import java.nio.charset.StandardCharsets;

import io.celer.examples.http.TimeBlockPage;

/**
 * Writes the responses of the peers that speak HTTP by hand, into a byte array, without garbage.
 */
final class RawResponses
{
    /** The most one response takes. */
    static final int MAX_LENGTH = TimeBlockPage.LENGTH + 512;

    private static final byte[] OK = ascii("HTTP/1.1 200 OK\r\nServer: ");
    private static final byte[] NOT_FOUND = ascii("HTTP/1.1 404 Not Found\r\nServer: ");
    private static final byte[] DATE = ascii("\r\nDate: ");
    private static final byte[] PLAINTEXT = ascii("\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n");
    private static final byte[] HELLO = ascii("Hello, World!");
    private static final byte[] HTML = ascii("\r\nContent-Type: text/html\r\nContent-Length: " + TimeBlockPage.LENGTH +
        "\r\nConnection: close\r\n\r\n");
    private static final byte[] EMPTY = ascii("\r\nContent-Length: 0\r\n");
    private static final byte[] KEEP_ALIVE = ascii("Connection: keep-alive\r\n\r\n");
    private static final byte[] CLOSE = ascii("Connection: close\r\n\r\n");
    private static final byte[] END = ascii("\r\n");

    private final byte[] server;

    /**
     * Responses naming a server.
     *
     * @param server the Server header's value.
     */
    RawResponses(final String server)
    {
        this.server = ascii(server);
    }

    /**
     * Writes the response to the request just scanned; {@code /gettimeblock} always closes.
     *
     * @param request the scanned request.
     * @param out     where, with {@link #MAX_LENGTH} bytes free from {@code at}.
     * @param at      the first byte.
     * @return the offset after the response.
     */
    int write(final RequestScanner request, final byte[] out, final int at)
    {
        final int route = request.route();
        int end = put(out, at, route == RequestScanner.NOT_FOUND ? NOT_FOUND : OK);
        end = put(out, end, server);
        end = put(out, end, DATE);
        end = put(out, end, HttpDate.nowBytes());
        if (route == RequestScanner.TIME_BLOCK)
        {
            end = put(out, end, HTML);
            return TimeBlockPage.write(out, end);
        }
        end = put(out, end, route == RequestScanner.PLAINTEXT ? PLAINTEXT : EMPTY);
        end = put(out, end, !request.keepAlive() ? CLOSE : request.http10() ? KEEP_ALIVE : END);
        return route == RequestScanner.PLAINTEXT ? put(out, end, HELLO) : end;
    }

    /**
     * Whether the connection stays open after the response to the request just scanned.
     *
     * @param request the scanned request.
     * @return true to keep it.
     */
    static boolean keepsOpen(final RequestScanner request)
    {
        return request.keepAlive() && request.route() != RequestScanner.TIME_BLOCK;
    }

    private static int put(final byte[] out, final int at, final byte[] bytes)
    {
        System.arraycopy(bytes, 0, out, at, bytes.length);
        return at + bytes.length;
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
