package io.celer.bench.soak;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * One HTTP/1.1 keep-alive client of the hello server on a thread of its own: GET /plaintext at a steady rate,
 * each answer read and checked (status 200, its body whole); a failed exchange is counted and the connection
 * made again.
 */
final class HelloKeepAlive implements Runnable
{
    private static final byte[] REQUEST =
        "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final int port;
    private final long periodNanos;
    private final SoakTally tally;
    private volatile boolean running = true;

    HelloKeepAlive(final int port, final int perSecond, final SoakTally tally)
    {
        this.port = port;
        this.periodNanos = 1_000_000_000L / Math.max(1, perSecond);
        this.tally = tally;
    }

    void stop()
    {
        running = false;
    }

    @Override
    public void run()
    {
        long due = System.nanoTime();
        while (running)
        {
            try (Socket socket = new Socket("127.0.0.1", port))
            {
                socket.setSoTimeout(10_000);
                socket.setTcpNoDelay(true);
                final OutputStream out = socket.getOutputStream();
                final InputStream in = new BufferedInputStream(socket.getInputStream());
                while (running)
                {
                    out.write(REQUEST);
                    out.flush();
                    if (readResponse(in))
                    {
                        tally.httpResponses.incrementAndGet();
                    }
                    else
                    {
                        tally.httpErrors.incrementAndGet();
                    }
                    due += periodNanos;
                    final long wait = due - System.nanoTime();
                    if (wait > 0)
                    {
                        LockSupport.parkNanos(wait);
                    }
                    else if (wait < -1_000_000_000L)
                    {
                        due = System.nanoTime(); // a second behind: no burst to catch up
                    }
                }
            }
            catch (final IOException ex)
            {
                if (running)
                {
                    tally.httpErrors.incrementAndGet();
                }
            }
        }
    }

    /** Reads one response; true when its status is 200 and its body came whole. */
    private static boolean readResponse(final InputStream in) throws IOException
    {
        final String status = line(in);
        long length = -1;
        String header;
        while (!(header = line(in)).isEmpty())
        {
            final int colon = header.indexOf(':');
            if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("content-length"))
            {
                length = Long.parseLong(header.substring(colon + 1).trim());
            }
        }
        if (length < 0)
        {
            throw new IOException("a response without Content-Length: " + status);
        }
        for (long i = 0; i < length; i++)
        {
            if (in.read() < 0)
            {
                throw new IOException("the body ended early");
            }
        }
        return status.startsWith("HTTP/1.1 200 ");
    }

    private static String line(final InputStream in) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n')
        {
            if (c < 0)
            {
                throw new IOException("the connection closed");
            }
            if (c != '\r')
            {
                line.append((char)c);
            }
        }
        return line.toString();
    }
}
