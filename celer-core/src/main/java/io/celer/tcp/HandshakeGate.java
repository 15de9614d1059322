package io.celer.tcp;

import java.util.ArrayDeque;

/**
 * Bounds the transport handshakes (TLS) a server runs at once on one reactor: each holds an engine and buffers
 * and costs a signature and a key agreement (on the transport's handshake executor, or on the reactor thread),
 * so a flood of them would hold memory and queue work without limit. Beyond the bound a new connection waits,
 * its socket not read, until a handshake ends, or is closed at once, as
 * {@link TransportFactory#handshakesOverLimit} says. A waiting connection's handshake timeout runs from its
 * accept, so the queue drains by itself when the flood outlasts it.
 *
 * <p>Used on the reactor thread only.
 */
final class HandshakeGate
{
    private final int max;
    private final boolean close;
    private final ArrayDeque<ConnectionHandshake> waiting = new ArrayDeque<>();
    private int running;
    private boolean admitting;
    /** Read by any thread, for the server's sums. */
    private volatile long waited;
    private volatile long refused;

    private HandshakeGate(final int max, final boolean close)
    {
        this.max = max;
        this.close = close;
    }

    /**
     * The gate a transport's settings ask for, or null when they set no bound (the plain transport's case).
     */
    static HandshakeGate of(final TransportFactory transport)
    {
        final int max = transport.maxConcurrentHandshakes();
        return max <= 0 ? null : new HandshakeGate(max, transport.handshakesOverLimit() == TcpConfig.OverLimit.CLOSE);
    }

    /**
     * Asks for a slot for a starting handshake.
     *
     * @return 1 when it may run now, 0 when it waits for {@link ConnectionHandshake#admit}, -1 when it is refused.
     */
    int enter(final ConnectionHandshake handshake)
    {
        if (running < max)
        {
            running++;
            return 1;
        }
        if (close)
        {
            refused++;
            return -1;
        }
        waited++;
        waiting.addLast(handshake);
        return 0;
    }

    /**
     * A handshake that had a slot ended (done or failed): the longest waiting ones start, as many as slots free.
     * A start that ends at once (a failure, a peer that sent everything already) comes back here; the loop
     * that runs already goes on instead of a nested one.
     */
    void leave()
    {
        running--;
        if (admitting)
        {
            return;
        }
        admitting = true;
        try
        {
            ConnectionHandshake next;
            while (running < max && (next = waiting.pollFirst()) != null)
            {
                running++;
                next.admit();
            }
        }
        finally
        {
            admitting = false;
        }
    }

    /**
     * A waiting connection closed (its handshake timed out, its server closed).
     */
    void forget(final ConnectionHandshake handshake)
    {
        waiting.remove(handshake);
    }

    int running()
    {
        return running;
    }

    int waiting()
    {
        return waiting.size();
    }

    long waited()
    {
        return waited;
    }

    long refused()
    {
        return refused;
    }
}
