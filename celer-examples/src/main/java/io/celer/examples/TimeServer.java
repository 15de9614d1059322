package io.celer.examples;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * TIME (RFC 868): sends each client the time as 4 bytes, seconds since 1900, and hangs up.
 *
 * <p>Try it with {@code rdate -o PORT -p HOST}, or with {@link TimeClient}.
 */
public final class TimeServer implements Handler
{
    private final TcpServer server;
    // Reused for every client: they all run on the one reactor thread.
    private final ByteBuffer time = ByteBuffer.allocate(Rfc868.LENGTH);

    /**
     * A server on all addresses.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     */
    public TimeServer(final Reactor reactor, final int port)
    {
        this(reactor, port, new TcpConfig());
    }

    /**
     * A server on one address.
     *
     * @param reactor     the reactor that runs it.
     * @param port        the port, 0 for an ephemeral one.
     * @param base     where to listen, the transport (TLS) and socket options; the framing is added here.
     */
    public TimeServer(final Reactor reactor, final int port, final TcpConfig base)
    {
        server = new TcpServer(reactor, port, base.copy(), this);
    }

    /**
     * Starts listening, from any thread.
     *
     * @return this.
     */
    public TimeServer open()
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
     * Sends the time and closes: the whole protocol happens here.
     */
    @Override
    public void opened(final Connection connection)
    {
        time.clear();
        Rfc868.putNow(time);
        time.flip();
        connection.send(time);
        connection.close();
    }

    /**
     * Runs the server from the command line, as {@code ./celer demo time} does.
     *
     * @param args {@code [--host H] [--port N]}.
     */
    public static void main(final String[] args)
    {
        Demo.mainFor("time", args);
    }
}
