package io.celer.tcp;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The far side of {@link PartitionTest}, run in its own JVM inside the network namespace: takes {@code m N} lines
 * in any number of connections, delivers each number once and in order (a resent one is a duplicate, said so),
 * answers each with its cumulative {@code a LAST}, and beats {@code h} every 100 ms on each connection so that
 * its silence means a broken path. Prints {@code listening PORT}, then {@code delivered N} and {@code duplicate N}.
 */
public final class PartitionPeer
{
    private static final PrintStream OUT = System.out;
    private static long last;

    private PartitionPeer()
    {
    }

    /**
     * Serves until killed.
     *
     * @param args none.
     * @throws Exception if it cannot listen.
     */
    public static void main(final String[] args) throws Exception
    {
        try (ServerSocket listener = new ServerSocket(0))
        {
            OUT.println("listening " + listener.getLocalPort());
            OUT.flush();
            while (true)
            {
                final Socket socket = listener.accept();
                socket.setTcpNoDelay(true);
                final Thread reader = new Thread(() -> serve(socket), "peer-" + socket.getPort());
                reader.setDaemon(true);
                reader.start();
            }
        }
    }

    private static void serve(final Socket socket)
    {
        try (socket)
        {
            final OutputStream out = socket.getOutputStream();
            final Thread beat = new Thread(() ->
            {
                try
                {
                    while (true)
                    {
                        Thread.sleep(100);
                        write(out, "h\n");
                    }
                }
                catch (final Exception ended)
                {
                    // the connection is gone
                }
            }, "beat-" + socket.getPort());
            beat.setDaemon(true);
            beat.start();
            final BufferedReader in = new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null)
            {
                if (line.startsWith("m "))
                {
                    write(out, "a " + take(Long.parseLong(line.substring(2))) + "\n");
                }
            }
        }
        catch (final Exception ended)
        {
            // a reset or a close: the client has moved on to another connection
        }
    }

    private static synchronized long take(final long number)
    {
        if (number == last + 1)
        {
            last = number;
            OUT.println("delivered " + number);
        }
        else if (number <= last)
        {
            OUT.println("duplicate " + number);
        }
        else
        {
            OUT.println("gap " + number + " after " + last);
        }
        return last;
    }

    private static void write(final OutputStream out, final String text) throws Exception
    {
        synchronized (out)
        {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }
}
