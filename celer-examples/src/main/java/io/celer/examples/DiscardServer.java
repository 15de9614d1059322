package io.celer.examples;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * DISCARD (RFC 863): accepts clients and drops whatever they send, answering nothing.
 */
public final class DiscardServer implements Handler
{
    private final TcpServer server;
    private volatile long bytesDiscarded;

    /**
     * A server on all addresses.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     */
    public DiscardServer(final Reactor reactor, final int port)
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
    public DiscardServer(final Reactor reactor, final int port, final TcpConfig base)
    {
        server = new TcpServer(reactor, port, base.copy(), this);
    }

    /**
     * Starts listening, from any thread.
     *
     * @return this.
     */
    public DiscardServer open()
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
     * Bytes dropped so far over all connections; readable from any thread.
     *
     * @return bytes.
     */
    public long bytesDiscarded()
    {
        return bytesDiscarded;
    }

    /**
     * Drops the bytes: moving the position to the limit tells the connection they were consumed.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        // Only the reactor thread writes the counter, so a plain read-add-write is safe.
        bytesDiscarded = bytesDiscarded + message.remaining();
        message.position(message.limit());
    }

    /**
     * Runs the server from the command line, as {@code ./celer demo discard} does.
     *
     * @param args {@code [--host H] [--port N]}.
     */
    public static void main(final String[] args)
    {
        Demo.mainFor("discard", args);
    }
}
