package io.celer.bench.peer.blocking;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.EchoSession;
import io.celer.bench.peer.PeerTls;

/**
 * A plain {@link java.net.Socket} echo server: one thread that blocks in read, then writes the message back;
 * an {@link javax.net.ssl.SSLServerSocket} under TLS.
 */
public final class BlockingEchoServer
{
    private BlockingEchoServer()
    {
    }

    /**
     * Serves one client until it disconnects.
     *
     * @param args {@code --size=B}, and {@code --keystore=FILE --store-password=P} for TLS.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final EchoSession session = new EchoSession();
        final PeerTls tls = PeerTls.of(child);
        try (ServerSocket listener = tls == null ? new ServerSocket(0, 1, InetAddress.getLoopbackAddress())
            : tls.sslContext().getServerSocketFactory().createServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            ChildProcess.listening(listener.getLocalPort());
            // Bounded waits: a stuck peer fails the run instead of hanging it.
            listener.setSoTimeout(60_000);
            try (Socket socket = listener.accept())
            {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(60_000);
                final InputStream in = socket.getInputStream();
                final OutputStream out = socket.getOutputStream();
                final byte[] message = new byte[size];
                final ByteBuffer view = ByteBuffer.wrap(message);
                while (BlockingPingClient.readFully(in, message))
                {
                    session.onMessage(view.getLong(0));
                    out.write(message);
                }
            }
        }
        catch (final IOException ex)
        {
            ChildProcess.fail("blocking server", ex);
        }
        ChildProcess.report(session.stats() == null ? "stats missing" : session.stats());
    }
}
