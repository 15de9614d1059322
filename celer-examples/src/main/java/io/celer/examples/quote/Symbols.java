package io.celer.examples.quote;

import java.nio.charset.StandardCharsets;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;

/**
 * What a quote request's path looks like: {@code /SYMBOL}, a slash and 1 to {@value #MAX_LENGTH} letters,
 * digits, dots or dashes ({@code /IBM}, {@code /BRK.B}).
 */
final class Symbols
{
    /** The longest symbol. */
    static final int MAX_LENGTH = 16;

    private static final byte[] USAGE =
        "ask for a quote: GET /SYMBOL, such as /IBM\n".getBytes(StandardCharsets.US_ASCII);

    private Symbols()
    {
    }

    /**
     * Answers 404 with how to ask to a request that is not {@code GET /SYMBOL}; allocation-free.
     *
     * @param request  the request.
     * @param response its response.
     * @return true if it answered: the request is not a quote's.
     */
    static boolean refused(final HttpRequest request, final HttpResponse response)
    {
        if (request.method() == HttpMethod.GET && isQuotePath(request.path()))
        {
            return false;
        }
        response.status(404).header("Content-Type", "text/plain").body(USAGE);
        return true;
    }

    /**
     * Whether a path names a symbol; allocation-free.
     *
     * @param path the request's path.
     * @return true for {@code /SYMBOL}.
     */
    static boolean isQuotePath(final CharSequence path)
    {
        final int length = path.length();
        if (length < 2 || length > MAX_LENGTH + 1 || path.charAt(0) != '/')
        {
            return false;
        }
        for (int i = 1; i < length; i++)
        {
            final char c = path.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-'))
            {
                return false;
            }
        }
        return true;
    }
}
