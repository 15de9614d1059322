package io.celer.http.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A blocking HTTP peer on an ephemeral loopback port that answers each connection by a script: for responses the
 * Celer server never sends (close-delimited, malformed), a back-end that dies, or one that never answers.
 */
final class ScriptedPeer implements AutoCloseable
{
    /** What a peer does with one accepted connection. */
    interface Script
    {
        /**
         * Serves one connection.
         *
         * @param peer   the peer, to read requests with.
         * @param socket the connection; closed after.
         * @param index  the connection's number, from 0.
         * @throws IOException to end the connection.
         */
        void serve(ScriptedPeer peer, Socket socket, int index) throws IOException;
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    final AtomicInteger connections = new AtomicInteger();
    final List<String> requestLines = new CopyOnWriteArrayList<>();

    ScriptedPeer(final Script script) throws IOException
    {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(() ->
        {
            while (!server.isClosed())
            {
                try
                {
                    final Socket socket = server.accept();
                    sockets.add(socket);
                    final int index = connections.getAndIncrement();
                    final Thread worker = new Thread(() ->
                    {
                        try (socket)
                        {
                            socket.setSoTimeout(30_000);
                            script.serve(this, socket, index);
                        }
                        catch (final IOException ignored)
                        {
                            // the script or the client ended the connection
                        }
                    }, "scripted-peer-" + index);
                    worker.setDaemon(true);
                    worker.start();
                }
                catch (final IOException ex)
                {
                    return;
                }
            }
        }, "scripted-peer-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    /**
     * Reads one request, its body by Content-Length, and records its request line.
     *
     * @return the request line, or null at the end of the stream.
     */
    String readRequest(final InputStream in) throws IOException
    {
        final ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4)
        {
            final int b = in.read();
            if (b < 0)
            {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        final String text = head.toString(StandardCharsets.ISO_8859_1);
        long length = 0;
        for (final String line : text.split("\r\n"))
        {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:"))
            {
                length = Long.parseLong(line.substring(15).trim());
            }
        }
        for (long i = 0; i < length; i++)
        {
            if (in.read() < 0)
            {
                return null;
            }
        }
        final String requestLine = text.substring(0, text.indexOf("\r\n"));
        requestLines.add(requestLine);
        return requestLine;
    }

    static void write(final OutputStream out, final String text) throws IOException
    {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    @Override
    public void close() throws IOException
    {
        server.close();
        for (final Socket socket : sockets)
        {
            socket.close();
        }
    }
}
