package io.celer.bench.conns;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/**
 * The client sockets of this benchmark: blocking, to 127.0.0.1, from a chosen loopback address.
 *
 * <p>The held connections come from 127.0.0.2 on, {@link #PER_ADDRESS_DEFAULT} each: a source address has its
 * own ephemeral ports, so more connections than the port range holds can be opened, and those of the fresh
 * client and of anything else on the machine, from 127.0.0.1, are left alone.
 */
final class LoopbackSockets
{
    /** Connections from one source address unless told: well inside the 28,232 ports of Linux's default range. */
    static final int PER_ADDRESS_DEFAULT = 10_000;
    /** Source addresses there are room for: 127.0.0.2 to 127.0.0.254. */
    static final int MAX_ADDRESSES = 253;
    private static final int FIRST_SOURCE = 2;

    private LoopbackSockets()
    {
    }

    /**
     * The k-th source address of the held connections.
     *
     * @param k from 0.
     * @return 127.0.0.(2 + k).
     * @throws IllegalArgumentException past {@link #MAX_ADDRESSES}.
     */
    static InetAddress source(final int k)
    {
        if (k < 0 || k >= MAX_ADDRESSES)
        {
            throw new IllegalArgumentException("no loopback source address number " + k);
        }
        try
        {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte)(FIRST_SOURCE + k)});
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Opens a connection to the server.
     *
     * @param source        the local address, or null for the kernel's choice (127.0.0.1).
     * @param port          the server's port on 127.0.0.1.
     * @param timeoutMillis the bound of the connect and of every read.
     * @return the connected channel, blocking, whose socket's streams time out.
     * @throws IOException if it cannot connect in time.
     */
    static SocketChannel connect(final InetAddress source, final int port, final int timeoutMillis)
        throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        try
        {
            // A close resets the connection: no TIME_WAIT keeps the source's ports from the next run.
            channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (source != null)
            {
                channel.bind(new InetSocketAddress(source, 0));
            }
            channel.socket().connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
            channel.socket().setSoTimeout(timeoutMillis);
            return channel;
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }
}
