package io.celer.bench.http.peer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Executor;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.bench.peer.server.PinnedThreads;

/**
 * The 2009 paper's simplest server: a blocking {@link ServerSocket} and a new platform thread per connection.
 * {@code --cpu} pins the accepting thread only; the harness pins the process with taskset.
 */
@Command(name = "thread-per-connection-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: blocking ServerSocket, one platform thread per connection.")
public final class ThreadPerConnectionServer implements PeerServer
{
    @Mixin
    PeerOptions options = new PeerOptions();

    private final ThreadsProbe probe = new ThreadsProbe();
    private final Acceptor acceptor = new Acceptor();

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new ThreadPerConnectionServer(), args);
    }

    @Override
    public Serving start() throws IOException
    {
        final int port = acceptor.start(options, "SocketThreads", probe,
            task -> new Thread(task, "http-connection").start());
        return new Serving(port, probe);
    }

    @Override
    public void stop()
    {
        acceptor.stop();
    }

    /**
     * Accepts on a blocking server socket and hands each connection to an executor; shared with the virtual
     * thread peer.
     */
    static final class Acceptor
    {
        private ServerSocket listener;
        private Thread thread;

        int start(final PeerOptions options, final String server, final ThreadsProbe probe, final Executor threads)
            throws IOException
        {
            // The paper's backlog of ab's bursts of new connections.
            listener = new ServerSocket(options.port(), 1024, InetAddress.getLoopbackAddress());
            final RawResponses responses = new RawResponses(server);
            thread = new Thread(() ->
            {
                PinnedThreads.pin(options.cpu());
                while (!listener.isClosed())
                {
                    try
                    {
                        final Socket socket = listener.accept();
                        threads.execute(new BlockingConnection(socket, responses, probe));
                    }
                    catch (final IOException ex)
                    {
                        // Closed by stop(), or a connection reset before accept: either way go on or leave.
                    }
                }
            }, "http-accept");
            thread.start();
            return listener.getLocalPort();
        }

        void stop()
        {
            try
            {
                listener.close();
                thread.join(5_000);
            }
            catch (final IOException | InterruptedException ex)
            {
                // Stopping anyway.
            }
        }
    }
}
