package io.celer.http.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.celer.test.Transports;

/**
 * A blocking test client that sends raw bytes and reads responses exactly as they come off the wire.
 */
final class RawClient implements AutoCloseable
{
    /** One response as read. */
    static final class Response
    {
        final String statusLine;
        final int status;
        final Map<String, String> headers;
        final byte[] body;

        Response(final String statusLine, final Map<String, String> headers, final byte[] body)
        {
            this.statusLine = statusLine;
            this.status = Integer.parseInt(statusLine.substring(9, 12));
            this.headers = headers;
            this.body = body;
        }

        String header(final String name)
        {
            return headers.get(name.toLowerCase());
        }

        String bodyText()
        {
            return new String(body, StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString()
        {
            return statusLine + " " + headers + " " + bodyText();
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawClient(final int port) throws IOException
    {
        this(port, Transports.PLAIN);
    }

    RawClient(final int port, final Transports transport) throws IOException
    {
        socket = transport.connect("127.0.0.1", port);
        socket.setSoTimeout(20_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    RawClient send(final String text) throws IOException
    {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawClient send(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
        return this;
    }

    void soTimeout(final int millis) throws IOException
    {
        socket.setSoTimeout(millis);
    }

    /**
     * Reads one response, interim ones included.
     *
     * @param headRequest whether it answers HEAD (no body follows whatever the fields say).
     * @return the response, or null at end of stream before its first byte.
     */
    Response read(final boolean headRequest) throws IOException
    {
        final String statusLine = line();
        if (statusLine == null)
        {
            return null;
        }
        final Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(); !line.isEmpty(); line = line())
        {
            final int colon = line.indexOf(':');
            headers.merge(line.substring(0, colon).toLowerCase(), line.substring(colon + 1).trim(), (a, b) -> a + "," + b);
        }
        final int status = Integer.parseInt(statusLine.substring(9, 12));
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (headRequest || status < 200 || status == 204 || status == 304)
        {
            return new Response(statusLine, headers, body.toByteArray());
        }
        if (headers.containsKey("content-length"))
        {
            body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
        }
        else if ("chunked".equals(headers.get("transfer-encoding")))
        {
            for (int size = Integer.parseInt(line(), 16); size > 0; size = Integer.parseInt(line(), 16))
            {
                body.write(in.readNBytes(size));
                line();
            }
            line();
        }
        else
        {
            body.write(in.readAllBytes());
        }
        return new Response(statusLine, headers, body.toByteArray());
    }

    Response read() throws IOException
    {
        return read(false);
    }

    /** Reads exactly this many raw bytes. */
    byte[] readBytes(final int length) throws IOException
    {
        return in.readNBytes(length);
    }

    /** Reads responses until the server closes. */
    List<Response> readUntilClosed() throws IOException
    {
        final List<Response> responses = new ArrayList<>();
        for (Response r = read(); r != null; r = read())
        {
            responses.add(r);
        }
        return responses;
    }

    /** Whether the server closed: end of stream (or reset) before the timeout, with no byte in between. */
    boolean isClosedByPeer() throws IOException
    {
        try
        {
            return in.read() == -1;
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final IOException ex)
        {
            return true; // reset
        }
    }

    private String line() throws IOException
    {
        final StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != -1)
        {
            if (b == '\n')
            {
                final int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char)b);
        }
        if (sb.length() == 0)
        {
            return null;
        }
        throw new IOException("stream ended inside a line: " + sb);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
