package io.celer.examples.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 response read off a blocking socket's bytes, as a client that checks the wire would read it: the
 * status line, the fields, and the body by Content-Length, by chunks (noted) or until the close.
 */
final class WireResponse
{
    final String statusLine;
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    final byte[] body;
    final boolean chunked;

    private WireResponse(final String statusLine, final InputStream in, final boolean head) throws IOException
    {
        this.statusLine = statusLine;
        this.status = Integer.parseInt(statusLine.split(" ")[1]);
        for (String line = readLine(in); !line.isEmpty(); line = readLine(in))
        {
            final int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
        }
        chunked = "chunked".equals(header("Transfer-Encoding"));
        if (head || status < 200 || status == 204 || status == 304)
        {
            body = new byte[0];
        }
        else if (chunked)
        {
            body = readChunks(in);
        }
        else if (header("Content-Length") != null)
        {
            body = in.readNBytes(Integer.parseInt(header("Content-Length")));
        }
        else
        {
            body = in.readAllBytes();
        }
    }

    /**
     * Reads the next response.
     *
     * @param in   the socket's input.
     * @param head whether it answers HEAD (no body whatever the fields say).
     * @return the response.
     * @throws IOException if the stream ends first.
     */
    static WireResponse read(final InputStream in, final boolean head) throws IOException
    {
        return new WireResponse(readLine(in), in, head);
    }

    /**
     * Reads the next response, to a request other than HEAD.
     *
     * @param in the socket's input.
     * @return the response.
     * @throws IOException if the stream ends first.
     */
    static WireResponse read(final InputStream in) throws IOException
    {
        return read(in, false);
    }

    /**
     * A field's value.
     *
     * @param name any case.
     * @return the value, or null.
     */
    String header(final String name)
    {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /**
     * The body as text.
     *
     * @return ISO-8859-1 text.
     */
    String text()
    {
        return new String(body, StandardCharsets.ISO_8859_1);
    }

    private static byte[] readChunks(final InputStream in) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true)
        {
            final String line = readLine(in);
            final int semicolon = line.indexOf(';');
            final int size = Integer.parseInt(semicolon < 0 ? line : line.substring(0, semicolon), 16);
            if (size == 0)
            {
                for (String trailer = readLine(in); !trailer.isEmpty(); trailer = readLine(in))
                {
                    // trailers are not used here
                }
                return out.toByteArray();
            }
            out.write(in.readNBytes(size));
            if (!readLine(in).isEmpty())
            {
                throw new IOException("no CRLF after a chunk");
            }
        }
    }

    /**
     * Reads a line ending in CRLF.
     *
     * @param in the input.
     * @return the line without its end.
     * @throws IOException if the stream ends first or the line ends in a bare LF.
     */
    static String readLine(final InputStream in) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        for (int b = in.read(); ; b = in.read())
        {
            if (b < 0)
            {
                throw new EOFException("stream ended after '" + line + "'");
            }
            if (b == '\n')
            {
                if (line.length() == 0 || line.charAt(line.length() - 1) != '\r')
                {
                    throw new IOException("bare LF after '" + line + "'");
                }
                return line.substring(0, line.length() - 1);
            }
            line.append((char)b);
        }
    }

    @Override
    public String toString()
    {
        return statusLine + " " + headers + " (" + body.length + " bytes)";
    }
}
