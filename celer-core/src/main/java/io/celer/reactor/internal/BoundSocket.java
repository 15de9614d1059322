package io.celer.reactor.internal;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import io.celer.reactor.Reactor;

/**
 * The life of a bound socket on a reactor, shared by listening servers and UDP endpoints: its local address,
 * its registration with the selector, and a close that frees the port at once.
 *
 * <p>The owner keeps its channel in a field of its own, so that its I/O reads it without going through this.
 * Methods other than {@link #bound}, {@link #port()} and {@link #localAddress()} are for the reactor thread.
 */
public final class BoundSocket
{
    private static final System.Logger LOG = System.getLogger(BoundSocket.class.getName());

    private final Reactor reactor;
    private volatile InetSocketAddress localAddress;
    private SelectionKey key;

    /**
     * A socket not yet bound.
     *
     * @param reactor the reactor that runs its owner.
     */
    public BoundSocket(final Reactor reactor)
    {
        this.reactor = reactor;
    }

    /**
     * Checks a port number before binding.
     *
     * @param port the port, 0 for an ephemeral one.
     * @return the port.
     * @throws IllegalArgumentException if it is out of range.
     */
    public static int checkPort(final int port)
    {
        if (port < 0 || port > 65535)
        {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        return port;
    }

    /**
     * Records the address a channel is bound to, from any thread.
     *
     * @param channel the bound channel.
     * @throws IOException if the address cannot be read.
     */
    public void bound(final NetworkChannel channel) throws IOException
    {
        localAddress = (InetSocketAddress)channel.getLocalAddress();
    }

    /**
     * The local port, known once bound.
     *
     * @return the port, or -1 before.
     */
    public int port()
    {
        final InetSocketAddress address = localAddress;
        return address == null ? -1 : address.getPort();
    }

    /**
     * The local address, known once bound.
     *
     * @return the address, or null before.
     */
    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    /**
     * Registers the channel with the reactor's selector.
     *
     * @param channel the channel.
     * @param ops     the interest set.
     * @param owner   what the selector calls.
     * @return false, logged, when the channel cannot be registered: the owner should close.
     */
    public boolean register(final SelectableChannel channel, final int ops, final Selectable owner)
    {
        try
        {
            key = reactor.internals().register(channel, ops, owner);
            return true;
        }
        catch (final IOException ex)
        {
            Logs.log(LOG, System.Logger.Level.ERROR, "cannot register " + owner, ex);
            return false;
        }
    }

    /**
     * Changes what the registered channel is selected for (none, to pause it); does nothing once closed.
     *
     * @param ops the interest set.
     */
    public void interest(final int ops)
    {
        if (key != null && key.isValid())
        {
            key.interestOps(ops);
        }
    }

    /**
     * Cancels the registration and closes the channel; a failed close is only logged.
     *
     * @param channel the channel.
     */
    public void close(final Closeable channel)
    {
        if (key != null)
        {
            key.cancel();
            key = null;
        }
        closeQuietly(channel);
    }

    /**
     * Closes now the sockets of channels closed while registered, so that the port refuses and can be bound
     * again before the owner tells anyone of the close; a failure is only logged.
     *
     * @param owner the owner, for the log.
     */
    public void release(final Object owner)
    {
        try
        {
            reactor.internals().releaseClosedChannels();
        }
        catch (final IOException ex)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "cannot release the socket of " + owner, ex);
        }
    }

    /**
     * Closes something, logging a failure instead of throwing it.
     *
     * @param closeable what to close.
     */
    public static void closeQuietly(final Closeable closeable)
    {
        try
        {
            closeable.close();
        }
        catch (final IOException ex)
        {
            Logs.log(LOG, System.Logger.Level.DEBUG, "close failed", ex);
        }
    }
}
