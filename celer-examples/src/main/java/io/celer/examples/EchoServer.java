package io.celer.examples;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * ECHO (RFC 862): sends every byte back to the client that sent it, as soon as it arrives.
 *
 * <p>A client that keeps sending without reading fills the socket and then the write buffer; the connection
 * then closes, as {@link TcpConfig#disconnectOnFullWriteBuffer} is on by default.
 */
public final class EchoServer implements Handler
{
    private final TcpServer server;

    /**
     * A server on all addresses.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     */
    public EchoServer(final Reactor reactor, final int port)
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
    public EchoServer(final Reactor reactor, final int port, final TcpConfig base)
    {
        server = new TcpServer(reactor, port, base.copy(), this);
    }

    /**
     * Starts listening, from any thread.
     *
     * @return this.
     */
    public EchoServer open()
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
     * Sends the bytes back: write and flush in one call.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        connection.send(message);
    }

    /**
     * Runs the server from the command line, as {@code ./celer demo echo} does.
     *
     * @param args {@code [--host H] [--port N]}.
     */
    public static void main(final String[] args)
    {
        Demo.mainFor("echo", args);
    }
}
