package io.celer.tcp;

import java.io.IOException;
import java.nio.channels.SelectionKey;

/**
 * The transport's handshake on a new TCP connection (TLS; a plain transport has none): a step at each readiness
 * event until the transport is done, bounded by the handshake timeout.
 */
final class ConnectionHandshake
{
    private final TcpConnection connection;
    private final ConnectionTimers timers;

    ConnectionHandshake(final TcpConnection connection, final ConnectionTimers timers)
    {
        this.connection = connection;
        this.timers = timers;
    }

    /**
     * The first step: done at once over a plain transport; otherwise the timeout starts.
     */
    void start()
    {
        try
        {
            if (connection.transport.handshake(connection.channel))
            {
                connection.handshakeDone();
                return;
            }
        }
        catch (final IOException ex)
        {
            connection.fail(TcpConnection.ioFailure(ex), ex);
            return;
        }
        timers.startHandshake();
        interest();
    }

    /**
     * The next step, when the socket is ready.
     */
    void proceed()
    {
        try
        {
            if (!connection.transport.handshake(connection.channel))
            {
                interest();
                return;
            }
        }
        catch (final IOException ex)
        {
            connection.fail(TcpConnection.ioFailure(ex), ex);
            return;
        }
        timers.handshakeDone();
        connection.counters.handshakesDone.increment();
        connection.key.interestOps(SelectionKey.OP_READ);
        connection.handshakeDone();
    }

    private void interest()
    {
        connection.key.interestOps(SelectionKey.OP_READ |
            (connection.transport.hasPendingOutput() ? SelectionKey.OP_WRITE : 0));
    }
}
