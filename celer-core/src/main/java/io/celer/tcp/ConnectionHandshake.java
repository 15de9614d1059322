package io.celer.tcp;

import java.io.IOException;
import java.nio.channels.SelectionKey;

/**
 * The transport's handshake on a new TCP connection (TLS; a plain transport has none): a step at each readiness
 * event, or when the transport's work off the reactor thread is done, until the transport is done, bounded by
 * the handshake timeout, and on a server by its {@link HandshakeGate}: a handshake beyond the gate's bound
 * waits, its socket not read, or is refused.
 */
final class ConnectionHandshake
{
    private static final int NO_SLOT = 0;
    private static final int WAITING = 1;
    private static final int RUNNING = 2;

    private final TcpConnection connection;
    /** A server's bound on handshakes at once on this reactor; null for a client's, or with no bound. */
    private final HandshakeGate gate;
    private int slot = NO_SLOT;
    /** The transport's way back once its work off the reactor thread is done: from that thread to this one. */
    private final Runnable resume = this::resumeFromElsewhere;
    private final Runnable resumeHere = this::resumed;

    ConnectionHandshake(final TcpConnection connection, final HandshakeGate gate)
    {
        this.connection = connection;
        this.gate = gate;
    }

    /**
     * What a new transport runs when its handshake's work off the reactor thread is done.
     */
    Runnable resume()
    {
        return resume;
    }

    private void resumeFromElsewhere()
    {
        try
        {
            // Waits for room should the reactor's queue be full; runs here once the reactor has stopped, when
            // the connection has closed with it.
            connection.reactor().execute(resumeHere);
        }
        catch (final IllegalStateException ex)
        {
            // the reactor stopped while this waited for room: the connection closed with it
        }
    }

    /** A stale call (the connection closed meanwhile), or one after the reactor stopped, does nothing. */
    private void resumed()
    {
        if (connection.reactor().isReactorThread() && connection.isHandshaking())
        {
            proceed();
        }
    }

    /**
     * The first step: done at once over a plain transport; otherwise the timeout starts, and past the gate's
     * bound the handshake waits for a slot or the connection closes.
     */
    void start()
    {
        if (gate != null)
        {
            final int entered = gate.enter(this);
            if (entered < 0)
            {
                connection.closeNow(CloseReason.HANDSHAKE_LIMIT);
                return;
            }
            if (entered == 0)
            {
                slot = WAITING;
                // From the accept: a queue longer than the timeout drains by itself.
                ConnectionTimers.startHandshake(connection);
                connection.key.interestOps(0);
                return;
            }
            slot = RUNNING;
        }
        try
        {
            if (connection.transport.handshake(connection.channel))
            {
                done();
                return;
            }
        }
        catch (final IOException ex)
        {
            connection.fail(TcpConnection.ioFailure(ex), ex);
            return;
        }
        ConnectionTimers.startHandshake(connection);
        interest();
    }

    /**
     * A waiting handshake got its slot: its first step, its timeout already running.
     */
    void admit()
    {
        slot = RUNNING;
        proceed();
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
        ConnectionTimers.handshakeDone(connection);
        connection.counters.handshakesDone.increment();
        connection.key.interestOps(SelectionKey.OP_READ);
        done();
    }

    private void done()
    {
        connection.handshakeDone();
        closed();
    }

    /**
     * The handshake ended, or the connection closed before: gives back its slot, or its place in the queue.
     */
    void closed()
    {
        final int held = slot;
        slot = NO_SLOT;
        if (held == WAITING)
        {
            gate.forget(this);
        }
        else if (held == RUNNING)
        {
            gate.leave();
        }
    }

    private void interest()
    {
        // While the transport works elsewhere nothing may touch it: a socket left watched would be reported
        // ready every cycle (the selector is level-triggered) for a step that can do nothing yet.
        connection.key.interestOps(connection.transport.handshakeWorkPending() ? 0 : SelectionKey.OP_READ |
            (connection.transport.hasPendingOutput() ? SelectionKey.OP_WRITE : 0));
    }
}
