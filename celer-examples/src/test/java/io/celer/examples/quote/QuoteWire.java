package io.celer.examples.quote;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import io.celer.examples.support.Loopback;

/**
 * A blocking HTTP/1.1 client on one keep-alive socket for the quote tests: pipelines {@code GET /SYMBOL}
 * requests and reads responses framed by Content-Length, as the front sends them.
 */
final class QuoteWire implements AutoCloseable
{
    /** One response: its status and body. */
    record Answer(int status, String body)
    {
        /** The symbol a quote line starts with. */
        String symbol()
        {
            final int space = body.indexOf(' ');
            return space < 0 ? body : body.substring(0, space);
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    QuoteWire(final int port) throws IOException
    {
        socket = new Socket(Loopback.HOST, port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(60_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    /** Sends the requests in one write: pipelined. */
    void send(final String... symbols) throws IOException
    {
        final StringBuilder requests = new StringBuilder();
        for (final String symbol : symbols)
        {
            requests.append("GET /").append(symbol).append(" HTTP/1.1\r\nHost: quotes\r\n\r\n");
        }
        out.write(requests.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads the next response. */
    Answer read() throws IOException
    {
        final String statusLine = line();
        int length = 0;
        for (String field = line(); !field.isEmpty(); field = line())
        {
            if (field.toLowerCase(Locale.ROOT).startsWith("content-length:"))
            {
                length = Integer.parseInt(field.substring(15).trim());
            }
        }
        final byte[] body = in.readNBytes(length);
        if (body.length < length)
        {
            throw new IOException("closed in a body");
        }
        return new Answer(Integer.parseInt(statusLine.split(" ")[1]), new String(body, StandardCharsets.US_ASCII));
    }

    /** Whether the server sent nothing more within a short wait. */
    boolean isQuiet() throws IOException
    {
        socket.setSoTimeout(200);
        try
        {
            return in.read() < 0;
        }
        catch (final java.net.SocketTimeoutException quiet)
        {
            return true;
        }
        finally
        {
            socket.setSoTimeout(60_000);
        }
    }

    private String line() throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read())
        {
            if (b < 0)
            {
                throw new IOException("closed after " + bytes);
            }
            if (b != '\r')
            {
                bytes.write(b);
            }
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
