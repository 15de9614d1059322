package io.celer.bench.conns;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A client process of {@code bench conns}: opens its share of the held connections one after another, each
 * doing its scenario's first exchange, then holds them idle until told to close.
 *
 * <p>Prints {@code opened K} every thousand connections, then {@code held opened=N answered=N nanos=T} (the time
 * from the first connect to the last answer). Stdin then takes {@code check}, answered by
 * {@code alive open=K closed=J} (a connection the server closed reads its end), and {@code close}, or the end of
 * input (the harness is gone): every connection is reset and the process exits. A connection that fails ends it
 * with status 1 and says which on stderr; it stops by itself after {@code --max-seconds}.
 */
@Command(name = "conns-holder", mixinStandardHelpOptions = true,
    description = "Opens idle connections to a server from loopback source addresses and holds them.")
public final class IdleHolder implements Callable<Integer>
{
    private static final int PROGRESS_EVERY = 1000;

    @Mixin
    ExchangeOptions server = new ExchangeOptions();

    @Option(names = "--first", defaultValue = "0",
        description = "The run-wide number of this process's first connection, which picks its source address.")
    int first;

    @Option(names = "--count", required = true, description = "Connections to open.")
    int count;

    @Option(names = "--per-address", defaultValue = "" + LoopbackSockets.PER_ADDRESS_DEFAULT,
        description = "Connections per source address, 127.0.0.2 first.")
    int perAddress;

    @Option(names = "--max-seconds", defaultValue = "3600", description = "Closes everything and exits after this.")
    int maxSeconds;

    private final List<SocketChannel> held = new ArrayList<>();

    /**
     * Runs the holder.
     *
     * @param args its options; see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new IdleHolder()).execute(args));
    }

    /**
     * Opens, holds, checks and closes.
     *
     * @return 0 when every connection was opened and answered, 1 otherwise.
     * @throws IOException if stdin cannot be read.
     */
    @Override
    public Integer call() throws IOException
    {
        startWatchdog();
        final Exchange exchange = server.exchange();
        final long start = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            final int number = first + i;
            final InetAddress source = LoopbackSockets.source(number / perAddress);
            try
            {
                final SocketChannel channel = server.connect(source);
                held.add(channel);
                exchange.open(channel.socket().getInputStream(), channel.socket().getOutputStream());
            }
            catch (final IOException | RuntimeException ex)
            {
                System.err.println("connection " + number + " from " + source.getHostAddress() + " failed after "
                    + i + " of " + count + " opened: " + ex);
                closeAll();
                return 1;
            }
            if ((i + 1) % PROGRESS_EVERY == 0)
            {
                report("opened " + (i + 1));
            }
        }
        report("held opened=" + held.size() + " answered=" + held.size() + " nanos=" + (System.nanoTime() - start));
        obey();
        closeAll();
        report("closed");
        return 0;
    }

    private void obey() throws IOException
    {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("close"))
        {
            if (line.trim().equals("check"))
            {
                report(alive());
            }
            else
            {
                System.err.println("unknown command '" + line + "': check or close");
            }
        }
    }

    /** Reads each connection without waiting: nothing to read is a connection still open and idle. */
    private String alive()
    {
        final ByteBuffer probe = ByteBuffer.allocate(1);
        int open = 0;
        int closed = 0;
        for (final SocketChannel channel : held)
        {
            try
            {
                channel.configureBlocking(false);
                probe.clear();
                if (channel.read(probe) == 0)
                {
                    open++;
                }
                else
                {
                    // The end of input, or bytes an idle connection should not get.
                    closed++;
                }
            }
            catch (final IOException ex)
            {
                closed++;
            }
        }
        return "alive open=" + open + " closed=" + closed;
    }

    private synchronized void closeAll()
    {
        for (final SocketChannel channel : held)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                // Closing anyway: the next ones still need closing.
            }
        }
        held.clear();
    }

    private void startWatchdog()
    {
        final Thread watchdog = new Thread(() ->
        {
            try
            {
                Thread.sleep(maxSeconds * 1000L);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            System.err.println("still holding after " + maxSeconds + " s: closing");
            closeAll();
            Runtime.getRuntime().halt(4);
        }, "holder-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void report(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }
}
