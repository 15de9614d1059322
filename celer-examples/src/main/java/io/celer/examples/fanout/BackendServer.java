package io.celer.examples.fanout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * A back-end node for {@link FanoutServer}: answers each line {@code X} with {@code <port>:X}, its own port
 * first, so whoever reads the answer sees which node did the work.
 *
 * <p>Answers go back in the order of the requests on each connection, which is what lets a front server
 * pipeline requests on one connection.
 */
public final class BackendServer implements Handler
{
    /** The longest request line accepted; a longer one closes the connection. */
    public static final int MAX_LINE_LENGTH = FanoutServer.MAX_LINE_LENGTH;

    private final TcpServer server;
    // Sized for the longest line after the longest port prefix; filled on the reactor thread only.
    private final byte[] answer = new byte[6 + MAX_LINE_LENGTH];
    private int prefixLength = -1;
    private volatile long answered;

    /**
     * A back-end on one address.
     *
     * @param reactor     the reactor that runs it.
     * @param port        the port, 0 for an ephemeral one.
     * @param base     where to listen, the transport (TLS) and socket options; the framing is added here.
     */
    public BackendServer(final Reactor reactor, final int port, final TcpConfig base)
    {
        final TcpConfig config = base.copy()
            .framing(() -> new LineFraming(MAX_LINE_LENGTH));
        server = new TcpServer(reactor, port, config, this);
    }

    /**
     * Starts listening, from any thread.
     *
     * @return this.
     */
    public BackendServer open()
    {
        server.open();
        return this;
    }

    /**
     * Clients connected now (front servers); readable from any thread.
     *
     * @return the count.
     */
    public int connections()
    {
        return server.connectionCount();
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
     * The port it listens on.
     *
     * @return the port, or -1 before open.
     */
    public int port()
    {
        return server.port();
    }

    /**
     * Whether it listens.
     *
     * @return true between open and close.
     */
    public boolean isOpen()
    {
        return server.isOpen();
    }

    /**
     * Requests answered so far; readable from any thread.
     *
     * @return the count.
     */
    public long answered()
    {
        return answered;
    }

    /**
     * Answers {@code <port>:X}; the reply leaves with the others of this read, in batchProcessed.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer line)
    {
        if (prefixLength < 0)
        {
            // The port is known for sure only once open, and an ephemeral one only then.
            final byte[] prefix = (server.port() + ":").getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(prefix, 0, answer, 0, prefix.length);
            prefixLength = prefix.length;
        }
        final int length = line.remaining();
        line.get(answer, prefixLength, length);
        answered++;
        connection.write(answer, 0, prefixLength + length);
    }

    /**
     * Flushes the answers of one read in a single socket write.
     */
    @Override
    public void batchProcessed(final Connection connection)
    {
        connection.flush();
    }
}
