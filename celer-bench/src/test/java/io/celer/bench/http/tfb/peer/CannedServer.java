package io.celer.bench.http.tfb.peer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A test server on loopback that answers every request, pipelined or not, with the same canned bytes, right or
 * wrong: what the drivers' checks are tested against. A thread per connection, blocking.
 */
public final class CannedServer implements AutoCloseable
{
    private final ServerSocket listener;
    private final byte[] answer;
    private final List<Socket> accepted = new ArrayList<>();
    private final Thread acceptor;

    /**
     * Listens on an ephemeral port.
     *
     * @param answer the whole response sent per request.
     * @throws IOException if it cannot listen.
     */
    public CannedServer(final String answer) throws IOException
    {
        this.answer = answer.getBytes(StandardCharsets.US_ASCII);
        listener = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "canned-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * A right plaintext response with one line left out or changed.
     *
     * @param from what to replace, such as the Date line.
     * @param to   what takes its place.
     * @return the response.
     */
    public static String plaintextWith(final String from, final String to)
    {
        final String right = "HTTP/1.1 200 OK\r\nServer: Canned\r\nDate: Sat, 28 Nov 2026 13:00:00 GMT\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";
        if (!right.contains(from))
        {
            throw new IllegalArgumentException(from);
        }
        return right.replace(from, to);
    }

    /** @return the port it listens on, on 127.0.0.1. */
    public int port()
    {
        return listener.getLocalPort();
    }

    private void accept()
    {
        try
        {
            while (true)
            {
                final Socket socket = listener.accept();
                synchronized (accepted)
                {
                    accepted.add(socket);
                }
                final Thread answering = new Thread(() -> answer(socket), "canned-connection");
                answering.setDaemon(true);
                answering.start();
            }
        }
        catch (final IOException ex)
        {
            // Closed: the test is over.
        }
    }

    /** Counts request ends (an empty line) across reads, and answers each. */
    private void answer(final Socket socket)
    {
        try (socket)
        {
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            final byte[] buffer = new byte[16 * 1024];
            int matched = 0;
            int n;
            while ((n = in.read(buffer)) > 0)
            {
                int answers = 0;
                for (int i = 0; i < n; i++)
                {
                    final byte b = buffer[i];
                    matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
                    if (matched == 4)
                    {
                        answers++;
                        matched = 0;
                    }
                }
                for (int i = 0; i < answers; i++)
                {
                    out.write(answer);
                }
                out.flush();
            }
        }
        catch (final IOException ex)
        {
            // The client went: this connection is done.
        }
    }

    @Override
    public void close() throws IOException
    {
        listener.close();
        synchronized (accepted)
        {
            for (final Socket socket : accepted)
            {
                socket.close();
            }
        }
    }
}
