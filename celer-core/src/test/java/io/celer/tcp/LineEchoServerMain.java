package io.celer.tcp;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;

/**
 * A line echo server for tests that run it in a JVM of its own under a resource limit. Prints its port, then
 * obeys lines on its standard input: {@code stats} prints the open connections, the failed accepts and the
 * connections closed for lack of memory for a buffer,
 * {@code exit} (or the end of the input) stops it.
 */
public final class LineEchoServerMain
{
    private LineEchoServerMain()
    {
    }

    /**
     * Runs the server.
     *
     * @param args the most connections to hold, 0 for no limit.
     * @throws Exception if it cannot start.
     */
    public static void main(final String[] args) throws Exception
    {
        final Reactor reactor = Reactor.create().start();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(128)).maxConnections(args.length > 0 ? Integer.parseInt(args[0]) : 0),
            new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    connection.send(message);
                }
            }).open();
        // Served once before the test begins, as any server has by the time it runs out: the JDK initializes some
        // of its socket classes on their first use, and one that cannot open a file then stays broken.
        try (Socket warm = new Socket("127.0.0.1", server.port()))
        {
            warm.getOutputStream().write("warm\n".getBytes(StandardCharsets.US_ASCII));
            new BufferedReader(new InputStreamReader(warm.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
        System.out.println("port " + server.port());
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line = in.readLine(); line != null && !line.equals("exit"); line = in.readLine())
        {
            if (line.equals("stats"))
            {
                final long[] stats = new long[3];
                reactor.call(() ->
                {
                    stats[0] = server.connectionCount();
                    stats[1] = server.acceptFailures();
                    stats[2] = server.bufferFailures();
                });
                System.out.println("stats " + stats[0] + " " + stats[1] + " " + stats[2]);
            }
        }
        reactor.close();
    }
}
