package io.celer.test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A blocking client that opens a connection per request and reads the answer until the server closes, as
 * {@code ab} without keep-alive: what tests of a server's accept and close cost drive it with.
 */
public final class ConnectionPerRequest
{
    private ConnectionPerRequest()
    {
    }

    /**
     * Connects, writes a request, reads until the server closes and closes too; bounded by generous timeouts.
     *
     * @param address the server.
     * @param request the bytes to send.
     * @param answer  where the answer is read to; longer answers are cut at its length.
     * @return the answer, as ASCII.
     * @throws IOException when the connection fails or times out.
     */
    public static String exchange(final InetSocketAddress address, final byte[] request, final byte[] answer)
        throws IOException
    {
        try (Socket socket = new Socket())
        {
            socket.connect(address, 10_000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request);
            final InputStream in = socket.getInputStream();
            int total = 0;
            for (int n; total < answer.length && (n = in.read(answer, total, answer.length - total)) > 0; )
            {
                total += n;
            }
            return new String(answer, 0, total, StandardCharsets.US_ASCII);
        }
    }
}
