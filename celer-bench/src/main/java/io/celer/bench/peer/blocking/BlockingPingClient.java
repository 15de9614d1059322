package io.celer.bench.peer.blocking;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;

import javax.net.ssl.SSLSocket;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.Markers;
import io.celer.bench.peer.PeerTls;
import io.celer.bench.peer.PingSession;

/**
 * A plain {@link java.net.Socket} ping client: the main thread writes, then blocks until the echo is in; an
 * {@link SSLSocket} under TLS.
 */
public final class BlockingPingClient
{
    private BlockingPingClient()
    {
    }

    /**
     * Runs the client until the last echo.
     *
     * @param args {@code --port=P --warmup=N --messages=N --size=B --histogram=FILE --progress=FILE}, and
     *             {@code --truststore=FILE --store-password=P} for TLS.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final PingSession session = PingSession.of(child);
        final PeerTls tls = PeerTls.of(child);
        try (Socket socket = tls == null ? new Socket(InetAddress.getLoopbackAddress(), child.intArg("port", 0))
            : tls.sslContext().getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                child.intArg("port", 0)))
        {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(60_000);
            if (socket instanceof SSLSocket secure)
            {
                secure.setSSLParameters(PeerTls.clientParameters(secure.getSSLParameters()));
                // Before the first message, so that it does not count the handshake's time.
                secure.startHandshake();
            }
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            final byte[] message = new byte[size];
            Arrays.fill(message, (byte)'x');
            final ByteBuffer view = ByteBuffer.wrap(message);
            long next = session.first();
            while (next != Markers.DONE)
            {
                view.putLong(0, next);
                out.write(message);
                if (!readFully(in, message))
                {
                    throw new EOFException("server closed before the last echo");
                }
                next = session.onEcho(view.getLong(0));
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            ChildProcess.fail("blocking client", ex);
        }
        session.report(child);
    }

    /**
     * Reads exactly one message.
     *
     * @param in      the socket's stream.
     * @param message filled whole.
     * @return false at end of stream before the first byte.
     * @throws IOException on a read error, or a stream that ends inside a message.
     */
    static boolean readFully(final InputStream in, final byte[] message) throws IOException
    {
        int read = 0;
        while (read < message.length)
        {
            final int n = in.read(message, read, message.length - read);
            if (n < 0)
            {
                if (read == 0)
                {
                    return false;
                }
                throw new EOFException("stream ended inside a message");
            }
            read += n;
        }
        return true;
    }
}
