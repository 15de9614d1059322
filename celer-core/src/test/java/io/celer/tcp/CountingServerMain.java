package io.celer.tcp;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.celer.counters.Counters;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;

/**
 * A line echo server on a reactor named {@code counted}, for tests that read its counters file from another JVM:
 * echoes each line, closes on {@code close}, sleeps 20 ms on {@code slow} (a stalled cycle), holds at most the connections its argument says. Prints its pid
 * and counters file, then its port; {@code exit} on its input (or the input's end) stops it.
 */
public final class CountingServerMain
{
    private CountingServerMain()
    {
    }

    /** Echoes each line; closes on {@code close}; sleeps 20 ms before echoing {@code slow}. */
    static final class EchoCommands implements Handler
    {
        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            final String line = StandardCharsets.US_ASCII.decode(message.duplicate()).toString();
            if (line.startsWith("close"))
            {
                connection.close();
                return;
            }
            if (line.startsWith("slow"))
            {
                try
                {
                    Thread.sleep(20);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            connection.send(message);
        }
    }

    /**
     * Runs the server.
     *
     * @param args the most connections to hold.
     * @throws Exception if it cannot start.
     */
    public static void main(final String[] args) throws Exception
    {
        final Reactor reactor = new Reactor(new ReactorConfig().name("counted")).start();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(128)).maxConnections(Integer.parseInt(args[0]))
            .overLimit(TcpConfig.OverLimit.CLOSE),
            new EchoCommands()).open();
        System.out.println("file " + Counters.process().file());
        System.out.println("port " + server.port());
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line = in.readLine(); line != null && !line.equals("exit"); line = in.readLine())
        {
            // only exit matters
        }
        reactor.close();
    }
}
