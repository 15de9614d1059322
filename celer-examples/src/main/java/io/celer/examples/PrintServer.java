package io.celer.examples;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * Prints every byte clients send, as it arrives, to a stream: telnet to it and type.
 */
public final class PrintServer implements Handler
{
    private static final int CHUNK = 8 * 1024;

    private final TcpServer server;
    private final PrintStream out;
    // One scratch array serves every connection: they all run on the one reactor thread.
    private final byte[] chunk = new byte[CHUNK];

    /**
     * A server on all addresses that prints to standard output.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     */
    public PrintServer(final Reactor reactor, final int port)
    {
        this(reactor, port, new TcpConfig(), System.out);
    }

    /**
     * A server on one address that prints to standard output.
     *
     * @param reactor     the reactor that runs it.
     * @param port        the port, 0 for an ephemeral one.
     * @param base     where to listen, the transport (TLS) and socket options; the framing is added here.
     */
    public PrintServer(final Reactor reactor, final int port, final TcpConfig base)
    {
        this(reactor, port, base, System.out);
    }

    /**
     * A server.
     *
     * @param reactor     the reactor that runs it.
     * @param port        the port, 0 for an ephemeral one.
     * @param base     where to listen, the transport (TLS) and socket options; the framing is added here.
     * @param out         where the received bytes go, unchanged.
     */
    public PrintServer(final Reactor reactor, final int port, final TcpConfig base, final PrintStream out)
    {
        this.out = out;
        server = new TcpServer(reactor, port, base.copy(), this);
    }

    /**
     * Starts listening, from any thread.
     *
     * @return this.
     */
    public PrintServer open()
    {
        server.open();
        return this;
    }

    /**
     * Stops listening and closes every connection, from any thread.
     */
    public void close()
    {
        server.close();
    }

    /**
     * The address it listens on.
     *
     * @return the address, or null before open.
     */
    public InetSocketAddress localAddress()
    {
        return server.localAddress();
    }

    /**
     * The TCP server underneath, for its connections.
     *
     * @return the server.
     */
    public TcpServer server()
    {
        return server;
    }

    /**
     * Writes the received bytes to the stream, raw, and flushes it.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        while (message.hasRemaining())
        {
            final int length = Math.min(chunk.length, message.remaining());
            message.get(chunk, 0, length);
            out.write(chunk, 0, length);
        }
        out.flush();
    }

    /**
     * Runs the server from the command line, as {@code ./celer demo print} does.
     *
     * @param args {@code [--host H] [--port N]}.
     */
    public static void main(final String[] args)
    {
        Demo.mainFor("print", args);
    }
}
