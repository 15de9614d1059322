package io.celer.tcp;

import java.io.IOException;
import java.nio.channels.SelectionKey;

import io.celer.reactor.Reactor;

/**
 * The end of one TCP connection: a lingering close that lets the buffered bytes out first, bounded in time,
 * and the release of its timers, transport, key and channel before its owner and handler hear of it.
 */
final class ConnectionCloser
{
    private static final System.Logger LOG = System.getLogger(TcpConnection.class.getName());

    private final TcpConnection connection;
    private final Reactor reactor;
    private final TcpConfig config;
    private final ConnectionOwner owner;
    private final ConnectionWriter writer;
    private final ConnectionTimers timers;
    private CloseReason closingReason;

    ConnectionCloser(final TcpConnection connection, final Reactor reactor, final TcpConfig config,
        final ConnectionOwner owner, final ConnectionWriter writer,
        final ConnectionTimers timers)
    {
        this.connection = connection;
        this.reactor = reactor;
        this.config = config;
        this.owner = owner;
        this.writer = writer;
        this.timers = timers;
    }

    /**
     * Whether a close should wait for bytes still buffered.
     */
    boolean shouldLinger()
    {
        return !writer.isEmpty() && config.closeLingerMillis() > 0;
    }

    /**
     * Waits for the socket to take the buffered bytes, for at most the linger time; reads stop meanwhile.
     */
    void linger(final CloseReason reason)
    {
        closingReason = reason;
        connection.key.interestOps(SelectionKey.OP_WRITE);
        timers.startLinger();
    }

    /**
     * A lingering close: the last buffered bytes reached the socket.
     */
    void drained()
    {
        connection.closeNow(closingReason);
    }

    /**
     * A lingering close ran out of time: drops what the socket did not take.
     */
    void lingerExpired()
    {
        LOG.log(System.Logger.Level.WARNING, "connection " + connection.id() + " to " + connection.remoteAddress() +
            ": " + writer.buffered() + " buffered bytes not taken within " + config.closeLingerMillis() +
            " ms of closing, dropped");
        connection.closeNow(closingReason);
    }

    /**
     * Releases everything the connection holds, then tells its owner and its handler.
     *
     * @param reason  why it closed.
     * @param orderly whether the transport may still say goodbye (a TLS close_notify).
     */
    void release(final CloseReason reason, final boolean orderly)
    {
        timers.cancelAll();
        final java.nio.channels.SocketChannel channel = connection.channel;
        if (orderly && channel != null)
        {
            connection.transport.shutdown(channel);
        }
        if (connection.key != null)
        {
            connection.key.cancel();
            connection.key = null;
        }
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                LOG.log(System.Logger.Level.DEBUG, "closing connection " + connection.id() + " failed", ex);
            }
        }
        writer.closed();
        connection.returnBuffers();
        if (config.busyPoll())
        {
            reactor.internals().removePoller(connection);
        }
        // The owner first, as on open: a handler's closed() then sees its client closed and its server without it.
        owner.onClosed(connection, reason);
        try
        {
            connection.handler.closed(connection, reason);
        }
        catch (final Throwable t)
        {
            LOG.log(System.Logger.Level.WARNING, "closed callback of connection " + connection.id() + " threw", t);
        }
    }
}
