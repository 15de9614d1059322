package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.http.HttpStatus;
import io.celer.http.internal.Ascii;
import io.celer.http.internal.HeadFields;
import io.celer.http.internal.HeaderFieldParser;

/**
 * Reads the fields that decide where a request ends and what follows it (RFC 9112, 6 and 9.3), and rejects
 * every combination a front end could read differently: both lengths, several lengths, a signed or spaced
 * length, codings that do not end in chunked. Chunked is the only transfer coding the server decodes: a body
 * under any other (gzip, deflate...) is answered 501 rather than handed on still coded.
 */
final class FramingFields
{
    /** The connection options (RFC 9110, 7.6.1) this server acts on, read in one pass over the field. */
    private static final CharSequence[] CONNECTION_OPTIONS = {"close", "keep-alive", "upgrade"};
    private static final int CLOSE = 1;
    private static final int KEEP_ALIVE = 2;
    private static final int UPGRADE = 4;
    private static final byte[] CONTENT_LENGTH = bytes("content-length");
    private static final byte[] TRANSFER_ENCODING = bytes("transfer-encoding");
    private static final byte[] CONNECTION = bytes("connection");
    private static final byte[] EXPECT = bytes("expect");
    private static final byte[] UPGRADE_NAME = bytes("upgrade");
    private static final byte[] CHUNKED = bytes("chunked");
    private static final byte[] CONTINUE = bytes("100-continue");

    private FramingFields()
    {
    }

    /**
     * Reads the framing fields of a parsed head into the request.
     *
     * @param buffer  the bytes.
     * @param start   absolute index of the request, which the table's offsets are relative to.
     * @param request holds the table, and receives the framing.
     * @return 0, or the status to reject the request with.
     */
    static int apply(final ByteBuffer buffer, final int start, final HttpRequest request)
    {
        final HeadFields head = request.head;
        final int minorVersion = head.minorVersion();
        long contentLength = -1;
        boolean transferEncoding = false;
        boolean lastChunked = false;
        int chunkedCount = 0;
        boolean otherCoding = false;
        boolean close = false;
        boolean keepAliveToken = false;
        boolean upgradeToken = false;
        boolean upgradeField = false;
        for (int h = 0; h < head.count(); h++)
        {
            final int ns = start + head.nameStart(h);
            final int ne = start + head.nameEnd(h);
            final int vs = start + head.valueStart(h);
            final int ve = start + head.valueEnd(h);
            // The name's length picks the one framing field it can be, so most fields cost one comparison.
            switch (ne - ns)
            {
                case 14:
                    if (Ascii.equalsLowerCase(buffer, ns, ne, CONTENT_LENGTH))
                    {
                        final long length = HeaderFieldParser.contentLength(buffer, vs, ve);
                        if (length < 0 || (contentLength >= 0 && contentLength != length))
                        {
                            return HttpStatus.BAD_REQUEST;
                        }
                        contentLength = length;
                    }
                    break;
                case 17:
                    if (Ascii.equalsLowerCase(buffer, ns, ne, TRANSFER_ENCODING))
                    {
                        transferEncoding = true;
                        int i = vs;
                        while (i <= ve)
                        {
                            int e = i;
                            while (e < ve && buffer.get(e) != ',')
                            {
                                e++;
                            }
                            final int ts = HeaderFieldParser.firstNonSpace(buffer, i, e);
                            final int te = HeaderFieldParser.lastNonSpace(buffer, ts, e);
                            if (ts < te)
                            {
                                if (Ascii.equalsLowerCase(buffer, ts, te, CHUNKED))
                                {
                                    chunkedCount++;
                                    lastChunked = true;
                                }
                                else
                                {
                                    lastChunked = false;
                                    otherCoding = true;
                                }
                            }
                            else if (e < ve || i == vs)
                            {
                                return HttpStatus.BAD_REQUEST; // an empty list element or an empty value
                            }
                            i = e + 1;
                        }
                    }
                    break;
                case 10:
                    if (Ascii.equalsLowerCase(buffer, ns, ne, CONNECTION))
                    {
                        final int options = Ascii.listedTokens(buffer, vs, ve, CONNECTION_OPTIONS);
                        close |= (options & CLOSE) != 0;
                        keepAliveToken |= (options & KEEP_ALIVE) != 0;
                        upgradeToken |= (options & UPGRADE) != 0;
                    }
                    break;
                case 6:
                    if (Ascii.equalsLowerCase(buffer, ns, ne, EXPECT))
                    {
                        if (!Ascii.equalsLowerCase(buffer, vs, ve, CONTINUE))
                        {
                            return HttpStatus.EXPECTATION_FAILED;
                        }
                        request.expectContinue = minorVersion == 1; // HTTP/1.0 clients never wait for it
                    }
                    break;
                case 7:
                    upgradeField |= Ascii.equalsLowerCase(buffer, ns, ne, UPGRADE_NAME);
                    break;
                default:
                    break;
            }
        }
        if (transferEncoding)
        {
            // A length that cannot be read is a 400 whatever the codings (RFC 9112, 6.3); only a well-framed
            // body under a coding this server does not decode is a 501 (6.1).
            if (contentLength >= 0 || minorVersion == 0 || chunkedCount != 1 || !lastChunked)
            {
                return HttpStatus.BAD_REQUEST;
            }
            if (otherCoding)
            {
                return HttpStatus.NOT_IMPLEMENTED;
            }
            head.chunked(true);
        }
        head.contentLength(contentLength);
        head.keepAlive(!close && (minorVersion == 1 || keepAliveToken));
        request.upgrade = upgradeToken && upgradeField && minorVersion == 1;
        return 0;
    }

    private static byte[] bytes(final String lowerCase)
    {
        return lowerCase.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
